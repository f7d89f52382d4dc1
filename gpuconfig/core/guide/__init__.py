"""The setup guide: which driver, PyTorch wheel, commands and settings a GPU needs, and what a probed machine
has wrong. Facts come from the compatibility tables in catalog/compat/."""
