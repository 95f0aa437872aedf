"""What is read: ranked tables, plots, exports, publication (issue 4 fills this app)."""
