"""Shared by every test package: nothing here may import Django models at import time."""
