"""Entry point: `gpuconfig` with no arguments opens the window; with a command it runs headless."""

from __future__ import annotations

import sys

from gpuconfig import CHECK_NVML


def main() -> int:
    if sys.stdout is None or sys.stderr is None:  # the Windows app without a console: print() must not fail
        import os

        sys.stdout = sys.stdout or open(os.devnull, "w")  # noqa: SIM115
        sys.stderr = sys.stderr or open(os.devnull, "w")  # noqa: SIM115
    if sys.argv[1:2] == [CHECK_NVML]:
        from gpuconfig.probe.nvml_child import main as check_nvml

        return check_nvml(sys.argv[2:])
    if sys.argv[1:2] == ["--self-test"]:
        from gpuconfig.selftest import main as self_test

        return self_test(sys.argv[2:])
    if len(sys.argv) > 1:
        from gpuconfig.cli import main as cli_main

        return cli_main(sys.argv[1:])
    return main_gui()


def main_gui() -> int:
    from gpuconfig.ui.can_start import start_problem

    problem = start_problem()
    if problem:  # Qt would abort with a page of its own text: say what is missing, in one line
        print(problem, file=sys.stderr)
        return 2
    from gpuconfig.ui.app import run

    return run(sys.argv)


if __name__ == "__main__":
    sys.exit(main())
