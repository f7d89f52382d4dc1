"""The worker programs: boot.py, which starts them, and bench/ and tracer/, run as packages in whichever
Python has torch. The app never imports them (gpuconfig.core.workers.programs knows where they are); they
import only each other, the standard library and torch's libraries, never gpuconfig."""
