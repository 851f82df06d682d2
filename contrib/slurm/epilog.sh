#!/bin/bash
# Example Slurm Epilog (slurm.conf: Epilog=/etc/slurm/epilog.d/rocm-doctor.sh).
# After each job, the quick GPU benchmarks (integrity, bandwidth, GEMM; about 10 s on a GPU):
# a GPU that now returns zeros or wrong results drains the node before the next job lands on it.
exec /usr/local/sbin/rocm-doctor-healthcheck --epilog
