"""Fine-grained evaluation on the platform (docs/measures/buckets.md, bootstrap.md): stored, then
read by pages."""
