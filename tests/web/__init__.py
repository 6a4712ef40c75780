"""web tests."""
