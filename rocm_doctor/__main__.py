"""Entry point for ``python -m rocm_doctor``."""

from rocm_doctor.cli import main

if __name__ == "__main__":
    main()
