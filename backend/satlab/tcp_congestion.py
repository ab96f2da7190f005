"""The TCP congestion controls this host's kernel can run: those it has now
(built in or loaded: /proc/sys/net/ipv4/tcp_available_congestion_control)
and those it can load (a module tcp_<name>.ko under
/lib/modules/<release>). Detected once per process (`host_kernel()`); a
run loads the module it needs (`load`, as root) before it starts.

Scenarios name a congestion control of Linux's net/ipv4; one the kernel
neither has nor can load is refused with the reason.
"""

from __future__ import annotations

import functools
import platform
import subprocess
from dataclasses import dataclass
from pathlib import Path

# Every TCP congestion control of Linux (net/ipv4/tcp_<name>.c, module
# tcp_<name>; reno is always built in), the lab's three first.
LINUX_TCP_CONGESTION_CONTROLS = ("cubic", "bbr", "reno", "bic", "cdg", "dctcp", "highspeed", "htcp", "hybla",
                                 "illinois", "lp", "nv", "scalable", "vegas", "veno", "westwood", "yeah")
AVAILABLE = Path("/proc/sys/net/ipv4/tcp_available_congestion_control")
MODULES_ROOT = Path("/lib/modules")
MODULE_SUFFIXES = (".ko", ".ko.xz", ".ko.zst", ".ko.gz")


@dataclass(frozen=True)
class KernelCongestionControls:
    available: tuple[str, ...]  # the kernel has them now (built in or loaded)
    loadable: tuple[str, ...]  # not loaded, with a module in modules_dir
    modules_dir: Path

    def problem(self, name: str) -> str | None:
        """Why the kernel cannot run congestion control `name`, or None."""
        if name in self.available or name in self.loadable:
            return None
        where = "" if self.modules_dir.is_dir() else f", and there is no {self.modules_dir}"
        return (f"{name} is not available on this host: the kernel has neither it built in nor the module "
                f"tcp_{name}{where}")

    def runnable(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """Those of names the kernel has or can load, in their order."""
        return tuple(name for name in names if self.problem(name) is None)

    def to_dict(self) -> dict[str, list[str]]:
        missing = [name for name in LINUX_TCP_CONGESTION_CONTROLS if self.problem(name) is not None]
        return {"available": list(self.available), "loadable": list(self.loadable), "missing": missing}


def _module_names(modules_dir: Path) -> set[str]:
    """The congestion controls with a module file anywhere under modules_dir."""
    names = set()
    for path in modules_dir.rglob("tcp_*.ko*") if modules_dir.is_dir() else ():
        for suffix in MODULE_SUFFIXES:
            if path.name.endswith(suffix):
                names.add(path.name.removeprefix("tcp_").removesuffix(suffix))
    return names


def detect(available_path: Path = AVAILABLE, modules_dir: Path | None = None) -> KernelCongestionControls:
    """What the kernel behind available_path and modules_dir (default: the
    running kernel's, /lib/modules/<release>) can run."""
    modules_dir = modules_dir or MODULES_ROOT / platform.release()
    available = tuple(available_path.read_text().split()) if available_path.exists() else ()
    modules = _module_names(modules_dir)
    loadable = tuple(name for name in LINUX_TCP_CONGESTION_CONTROLS if name in modules and name not in available)
    return KernelCongestionControls(available, loadable, modules_dir)


@functools.cache
def host_kernel() -> KernelCongestionControls:
    """This host's, detected once per process."""
    return detect()


def load(name: str, kernel: KernelCongestionControls) -> str | None:
    """Make congestion control `name` available (modprobe tcp_<name> if the
    kernel has it as a module; needs root); why it cannot be, or None."""
    if name in kernel.available:
        return None
    if name not in kernel.loadable:
        return kernel.problem(name)
    try:
        loaded = subprocess.run(["modprobe", f"tcp_{name}"], capture_output=True, text=True)
    except OSError as error:
        return f"{name} needs the module tcp_{name}, and modprobe cannot run ({error.strerror}): install kmod"
    if loaded.returncode != 0:
        return f"{name} needs the module tcp_{name}, which did not load: {loaded.stderr.strip()}"
    return None
