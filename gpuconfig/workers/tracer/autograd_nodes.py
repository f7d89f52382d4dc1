"""When each autograd node of a traced step is created and released, in the stream of storage events.

A real CPU step allocates more than its tensors: for every autograd node it creates (AddmmBackward0,
ViewBackward0, AccumulateGrad...) PyTorch's C++ side allocates about four small objects from malloc (the
node, its edges, its saved variables and the tensor headers they keep), and they live until backward runs
the node. Allocated between a step's large tensors, they pin the holes the freed temporaries leave, so glibc's
heap grows well past the tensors (workers/tracer/heap.py). The graph under fake tensors is the real graph
(autograd runs above them), so its nodes are seen here as the model creates them: a node is marked at the
storage event it follows, with whether it was created inside an activation-checkpointed region (whose
saved tensors are packed away, so its objects differ), and marked again where backward runs it, or where
it is destroyed when backward never reaches it.
"""

from __future__ import annotations

import weakref
from typing import Any

from . import torch_private

PLAIN, CHECKPOINTED = 1, 2  # the kinds of node; a release is marked with kind 0


class _Alive:
    """Put in a node's metadata: collected when the node is destroyed, which a finalizer on it marks."""

    def __init__(self, serial: int) -> None:
        self.serial = serial


METADATA_KEY = "gpuconfig.node"


def node_marker(events: list[Any]) -> Any:
    """A TorchFunctionMode that appends (storage events so far, node serial, kind) to `marks` for every
    autograd node the step creates, and (position, serial, 0) once: where backward runs the node (its saved
    variables go then, and the real run's heap gets the node's blocks back for reuse; measured against real
    runs by benchmarks/estimate_accuracy_cpu.py), or, for a node backward never reaches, where it is
    destroyed with the tensors that held it. The marker holds no node: a sentinel in the node's own metadata
    dies with it, and a finalizer on the sentinel marks that release, so the traced memory is what it would
    be without the marker."""
    import torch

    function_mode = torch_private.function_mode()
    flatten = torch_private.tree_flatten()
    top_saved_tensor_hooks = torch_private.top_saved_tensor_hooks()

    class NodeMarker(function_mode):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.marks: list[tuple[int, int, int]] = []
            self.serial = 0
            self.released: set[int] = set()
            self.applying = False  # a marked node's backward function is running (between its pre- and post-hook)

        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            out = func(*args, **(kwargs or {}))
            if torch.is_grad_enabled():
                kind = PLAIN if top_saved_tensor_hooks() is None else CHECKPOINTED
                leaves = flatten(out)[0]
                self._mark([t.grad_fn for t in leaves if isinstance(t, torch.Tensor) and t.grad_fn is not None], kind)
            return out

        def _mark(self, nodes: list[Any], kind: int) -> None:
            """Mark every node reachable from `nodes` that is not marked yet (the function may have created
            several, each reaching the ones it was built on)."""
            while nodes:
                node = nodes.pop()
                if node is None:
                    continue
                marked = node.metadata.get(METADATA_KEY)
                if marked is not None and marked.serial not in self.released:
                    continue  # marked in this step already
                # A node met again after its release is one a later step reuses (a parameter's AccumulateGrad
                # that something kept alive): the step it joins gets its objects as a new one would.
                self.serial += 1
                serial = self.serial
                alive = _Alive(serial)
                node.metadata[METADATA_KEY] = alive
                weakref.finalize(alive, self._release, serial)
                node.register_prehook(self._enter)
                node.register_hook(lambda *_, serial=serial: self._leave(serial))
                self.marks.append((len(events), serial, kind))
                nodes.extend(f for f, _ in node.next_functions if f is not None)

        def _enter(self, *_: Any) -> None:
            self.applying = True

        def _leave(self, serial: int) -> None:
            self.applying = False  # the engine now adds the node's outputs into the next nodes' buffers
            self._release(serial)

        def _release(self, serial: int) -> None:
            if serial not in self.released:
                self.released.add(serial)
                self.marks.append((len(events), serial, 0))

    return NodeMarker()
