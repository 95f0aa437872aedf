"""The benchmarks: scripts run by hand, with `make bench`, and in their smoke mode by the suite."""
