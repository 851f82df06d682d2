from cli_runner import run_cli  # noqa: F401
