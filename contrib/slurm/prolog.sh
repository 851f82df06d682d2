#!/bin/bash
# Example Slurm Prolog (slurm.conf: Prolog=/etc/slurm/prolog.d/rocm-doctor.sh, or a line in your own).
# A quick check before each job, without the torch probe: when the GPUs must not be used
# (isolate, reset), the node is drained with the finding as the reason and the prolog fails,
# so Slurm requeues the job elsewhere. Every other verdict lets the job start.
exec /usr/local/sbin/rocm-doctor-healthcheck --prolog
