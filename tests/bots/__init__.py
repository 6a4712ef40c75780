"""bots tests."""
