"""The eGPU tab: will an external GPU work on this laptop, and how fast."""
