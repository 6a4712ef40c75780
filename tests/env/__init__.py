"""env tests."""
