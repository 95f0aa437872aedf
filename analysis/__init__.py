"""Fine-grained evaluation on the platform (SPEC §6, §4 bootstrap): stored, then read by pages."""
