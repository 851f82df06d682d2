"""What rocm-doctor publishes for other systems to read (Prometheus textfile metrics)."""
