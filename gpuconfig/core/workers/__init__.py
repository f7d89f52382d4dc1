"""The one place that picks a Python and starts worker processes.

environment: the clean environment and the one way to start any program of the user's; interpreters:
asking a Python its versions; search: where Pythons are looked for; pythons: the one choice of the worker
Python; process: running a worker program and watching it; programs: where the worker programs are
(gpuconfig/workers, which the app never imports).
"""
