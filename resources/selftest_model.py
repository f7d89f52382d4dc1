"""The model `gpuconfig --self-test` estimates: a small network in plain torch, so that any Python with
torch can trace it (no transformers needed). The trace worker calls model_and_inputs(batch, seq)."""

import torch


def model_and_inputs(batch, seq):
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 512),
        torch.nn.GELU(),
        torch.nn.Linear(512, 512),
        torch.nn.GELU(),
        torch.nn.Linear(512, 10),
    )
    return model, (torch.randn(batch, 256),)
