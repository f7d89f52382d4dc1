"""The steps of a setup guide: driver, Python environment, PyTorch install (pip, uv, conda), verification.

Every version in the text comes from the WheelChoice, which comes from the compatibility tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuconfig.core.guide.choose import GpuTarget, WheelChoice, joined
from gpuconfig.core.guide.oses import OsInfo
from gpuconfig.core.guide.records import version_key
from gpuconfig.core.guide.tables import load_tables
from gpuconfig.core.i18n import translate

Command = tuple[str, str]  # (shell, text): "bash" or "powershell", and what to type
PREFERRED_PYTHON = "3.12"  # inside every release's range from 2.4 on; otherwise the newest the build has


@dataclass(frozen=True)
class Step:
    """One thing to do: why it matters, what to type, and what the output should say; `key` names a step the
    code looks for ("pip": the install step whose command a reader copies first), whatever its title's language."""

    title: str
    why: str
    commands: tuple[Command, ...] = ()
    expect: str = ""
    key: str = ""


def python_version(choice: WheelChoice) -> str:
    low, high = version_key(choice.build.python_min), version_key(choice.build.python_max)
    return PREFERRED_PYTHON if low <= version_key(PREFERRED_PYTHON) <= high else choice.build.python_max


def packages(choice: WheelChoice) -> str:
    """The requirement specifiers, quoted for both bash and PowerShell: "torch==2.14.*" "torchvision==0.29.*"."""
    release = choice.release
    pins = [f'"torch=={release.torch}.*"']
    pins += [
        f'"{name}=={series}.*"'
        for name, series in (("torchvision", release.torchvision), ("torchaudio", release.torchaudio))
        if series
    ]
    return " ".join(pins)


def index_option(choice: WheelChoice, system: OsInfo) -> str:
    # macOS wheels (with MPS) are on PyPI itself; elsewhere the index decides CUDA, ROCm or CPU.
    return "" if system.wheel_os == "macos" else f" --index-url {choice.build.index}"


def driver_step(system: OsInfo, choice: WheelChoice, targets: list[GpuTarget]) -> Step | None:
    if not choice.runs_gpu or choice.build.platform == "cpu":
        return None
    if choice.build.platform == "rocm":
        return _amd_step(system)
    need, cuda = choice.min_driver or "", choice.build.cuda
    floor = choice.required_driver or need
    archs = [a for t in targets if (a := load_tables().nvidia_arch(t.compute_capability or ""))]
    last = min((a.last_driver_branch for a in archs if a.last_driver_branch), key=version_key, default="")
    branch = last or need.split(".")[0]
    open_modules = any(a.open_kernel_modules for a in archs)
    why = [
        translate(
            "Guide",
            "{build} brings its own CUDA {cuda} runtime, so only the driver is installed system-wide. "
            "NVIDIA lists driver {need} or newer for CUDA {cuda}; {floor} is the oldest that runs it at all "
            "(CUDA minor-version compatibility). A CUDA toolkit is needed only to compile extensions.",
        ).format(build=choice.build.label, cuda=cuda, need=need, floor=floor)
    ]
    if last:
        names = ", ".join(sorted({a.architecture for a in archs if a.last_driver_branch}))
        why.append(
            translate(
                "Guide",
                "The R{branch} branch is the last NVIDIA driver for {architectures}: install it, not a newer branch.",
            ).format(branch=last, architectures=names)
        )
    package = f"nvidia-driver-{branch}" + ("-open" if open_modules else "")
    if open_modules and system.linux and not system.wsl:
        why.append(
            translate("Guide", "This GPU is supported only with NVIDIA's open kernel modules (the -open packages).")
        )
    expect = translate("Guide", "Driver Version: {need} or newer").format(need=need)
    if system.wsl:
        why.append(
            translate(
                "Guide",
                "Under WSL2 the Windows driver serves Linux too: install it on Windows (nvidia.com/drivers) and "
                "never install a Linux NVIDIA driver inside WSL; libcuda.so is mapped into WSL for you.",
            )
        )
        return Step(
            translate("Guide", "Install the NVIDIA driver on Windows, not in WSL"),
            " ".join(why),
            (("bash", "nvidia-smi"),),
            translate("Guide", "Driver Version: {need} or newer, and your GPU listed").format(need=need),
        )
    if system.wheel_os == "windows":
        why.append(
            translate(
                "Guide",
                "Download it from nvidia.com/drivers (Game Ready or Studio for GeForce, the data-center driver "
                "for others) and reboot.",
            )
        )
        return Step(
            translate("Guide", "Install the NVIDIA driver"), " ".join(why), (("powershell", "nvidia-smi"),), expect
        )
    if system.id.startswith("ubuntu"):
        newer = "    # " + translate("Guide", "or a newer branch from the list")
        commands: tuple[Command, ...] = (
            ("bash", "sudo ubuntu-drivers list"),
            ("bash", f"sudo apt install {package}" + ("" if last else newer)),
            ("bash", "sudo reboot"),
            ("bash", "nvidia-smi"),
        )
        pick = (
            translate("Guide", "Pick the {branch} branch.")
            if last
            else translate("Guide", "Pick the {branch} branch or newer from Ubuntu's list.")
        )
        why.append(pick.format(branch=branch))
    else:
        sources = "    # " + translate("Guide", "needs 'contrib non-free non-free-firmware' in sources")
        commands = (
            ("bash", "apt-cache policy nvidia-driver" + sources),
            ("bash", "sudo apt install nvidia-driver firmware-misc-nonfree linux-headers-amd64"),
            ("bash", "sudo reboot"),
            ("bash", "nvidia-smi"),
        )
        why.append(
            translate(
                "Guide",
                "Debian's own package is fine if apt-cache shows {need} or newer; otherwise install the driver from "
                "NVIDIA's CUDA repository for debian12 (cuda-keyring package, then the cuda-drivers or nvidia-open "
                "package).",
            ).format(need=need)
        )
    return Step(translate("Guide", "Install the NVIDIA driver"), " ".join(why), commands, expect)


def _amd_step(system: OsInfo) -> Step:
    return Step(
        translate("Guide", "Give your user the AMD GPU"),
        translate(
            "Guide",
            "PyTorch's ROCm wheel bundles the ROCm libraries; the system needs the amdgpu kernel driver (in the Linux "
            "kernel, or AMD's amdgpu-dkms from amdgpu-install) and your user in the render and video groups.",
        ),
        (
            ("bash", "sudo usermod -aG render,video $USER    # " + translate("Guide", "then log out and in")),
            ("bash", "ls -l /dev/kfd /dev/dri/render*"),
        ),
        translate("Guide", "/dev/kfd and /dev/dri/renderD128 exist and belong to the render group"),
    )


def environment_step(system: OsInfo, choice: WheelChoice) -> Step:
    py = python_version(choice)
    build = choice.build
    why = translate("Guide", "torch {torch} has wheels for Python {low} to {high}; this guide uses {python}.").format(
        torch=build.torch, low=build.python_min, high=build.python_max, python=py
    )
    if system.shell == "powershell":
        commands: tuple[Command, ...] = (
            ("powershell", f"py -{py} -m venv $HOME\\venvs\\torch"),
            ("powershell", "& $HOME\\venvs\\torch\\Scripts\\Activate.ps1"),
        )
    else:
        commands = (("bash", f"python{py} -m venv ~/venvs/torch"), ("bash", "source ~/venvs/torch/bin/activate"))
    return Step(
        translate("Guide", "Create a Python environment"),
        why,
        commands,
        translate("Guide", "python --version prints Python {python}.x").format(python=py),
    )


def install_steps(system: OsInfo, choice: WheelChoice) -> tuple[Step, Step, Step]:
    shell, pins, index = system.shell, packages(choice), index_option(choice, system)
    py, build = python_version(choice), choice.build
    what = (
        f"{build.label} (CUDA {build.cuda})"
        if build.cuda
        else f"{build.label} (ROCm {build.rocm})"
        if build.rocm
        else build.label
    )
    missing = [
        n for n, s in (("torchvision", choice.release.torchvision), ("torchaudio", choice.release.torchaudio)) if not s
    ]
    also = (
        " "
        + translate("Guide", "No {packages} release matches torch {torch}, so it is left out.").format(
            packages=joined(missing, translate("Guide", "{a} or {b}")), torch=build.torch
        )
        if missing
        else ""
    )
    pip = Step(
        translate("Guide", "Install PyTorch with pip"),
        (
            translate("Guide", "Installs torch {torch} from PyPI, whose macOS wheel includes the MPS backend.").format(
                torch=build.torch
            )
            if system.wheel_os == "macos"
            else translate(
                "Guide",
                "Installs {build} and its companion packages from one index, so pip cannot mix in a build for "
                "another CUDA or a CPU-only wheel.",
            ).format(build=what)
        )
        + also,
        ((shell, f"python -m pip install {pins}{index}"),),
        # what pip prints, in English whatever the guide's language
        f"Successfully installed torch-{build.torch}.x" + ("" if system.wheel_os == "macos" else f"+{build.variant}"),
        key="pip",
    )
    activate = "source .venv/bin/activate" if shell == "bash" else ".venv\\Scripts\\Activate.ps1"
    uv = Step(
        translate("Guide", "Or with uv"),
        translate(
            "Guide",
            "The same packages through uv. uv's own --torch-backend=auto picks an index from the installed driver, "
            "not from the GPU's architecture, so the index is named here.",
        ),
        ((shell, f"uv venv --python {py}"), (shell, activate), (shell, f"uv pip install {pins}{index}")),
        pip.expect,
    )
    conda = Step(
        translate("Guide", "Or in a conda environment"),
        translate(
            "Guide",
            "The pytorch channel on Anaconda stopped at torch 2.5 (pytorch#138506). Create the environment with conda "
            "and install the wheel with pip inside it, or use conda-forge's pytorch package and check its "
            "architecture list with the verification step.",
        ),
        (
            (shell, f"conda create -n torch python={py} -y"),
            (shell, "conda activate torch"),
            (shell, f"python -m pip install {pins}{index}"),
        ),
        pip.expect,
    )
    return pip, uv, conda


def verify_step(system: OsInfo, choice: WheelChoice, targets: list[GpuTarget]) -> Step:
    shell, build = system.shell, choice.build

    def py(code: str) -> Command:
        return (shell, f'python -c "{code}"')

    if system.wheel_os == "macos" and any(t.vendor == "apple" for t in targets):
        return Step(
            translate("Guide", "Check the install"),
            translate("Guide", "torch sees the Apple GPU through MPS and runs a matrix product on it."),
            (
                py("import torch; print(torch.__version__); print(torch.backends.mps.is_available())"),
                py(
                    "import torch; a = torch.randn(2048, 2048, device='mps'); b = a @ a; "
                    "torch.mps.synchronize(); print(b.shape, b.device)"
                ),
            ),
            translate("Guide", "{torch}.x, then True; then torch.Size([2048, 2048]) mps:0").format(torch=build.torch),
        )
    if not choice.runs_gpu:
        return Step(
            translate("Guide", "Check the install"),
            translate("Guide", "A CPU build: torch.version.cuda is None and the matrix product runs on the CPU."),
            (
                py("import torch; print(torch.__version__); print(torch.version.cuda)"),
                py("import torch; a = torch.randn(2048, 2048); print((a @ a).shape)"),
            ),
            translate("Guide", "{torch}.x+cpu (or {torch}.x), then None; then torch.Size([2048, 2048])").format(
                torch=build.torch
            ),
        )
    runtime = "torch.version.hip" if build.rocm else "torch.version.cuda"
    caps = ", ".join(
        str(tuple(int(p) for p in t.compute_capability.split("."))) for t in targets if t.compute_capability
    )
    arch = str(list(build.arch_list))
    how = "; ".join(sorted(set(choice.how)))
    version = build.cuda or build.rocm
    if build.rocm:
        version = translate("Guide", "{version} (HIP prints a longer version that starts with it)").format(
            version=version
        )
    return Step(
        translate("Guide", "Check the install"),
        translate(
            "Guide",
            "Confirms the wheel, its runtime, that torch sees the GPU, that the wheel has code for it, and that a real "
            "matrix product runs. The GPU runs {how}.",
        ).format(how=how),
        (
            py(f"import torch; print(torch.__version__); print({runtime}); print(torch.cuda.is_available())"),
            py(
                "import torch; print(torch.cuda.get_device_name(0)); "
                "print(torch.cuda.get_device_capability(0)); print(torch.cuda.get_arch_list())"
            ),
            py(
                "import torch; a = torch.randn(4096, 4096, device='cuda'); b = a @ a; torch.cuda.synchronize(); "
                "print(b.shape, b.device, torch.isfinite(b).all().item())"
            ),
        ),
        translate(
            "Guide",
            "{torch}.x+{variant}, then {version}, then True; {capability}arch list {arch}; "
            "then torch.Size([4096, 4096]) cuda:0 True",
        ).format(
            torch=build.torch,
            variant=build.variant,
            version=version,
            capability=translate("Guide", "capability {caps}; ").format(caps=caps) if caps else "",
            arch=arch,
        ),
    )
