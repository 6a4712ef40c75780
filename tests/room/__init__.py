"""room tests."""
