"""Path checks for rasterio inside the sandbox child: GDAL reads and writes in C, out of the audit hook's sight."""

from __future__ import annotations

import os
import re
import sys

_ARCHIVES = ("/vsizip/", "/vsigzip/", "/vsitar/", "/vsi7z/", "/vsirar/")
_DRIVER_PREFIX = re.compile(r"^[A-Za-z][A-Za-z0-9_]+:")  # NETCDF:f:v, MEM:::, GPKG:f:t (a drive letter is one char)
_CONFIG_MARKERS = ("CURL", "HTTP", "PROXY", "NETWORK", "AWS", "GS_", "GOOGLE", "AZURE", "OSS_", "SWIFT", "WEBHDFS",
                   "VSI", "DRIVER_PATH", "PLUGIN", "SQLITE", "PYTHON", "SSL", "_CA_")  # fmt: skip
_WRAPPED = "geoclerk_sandbox_checked"


def check_raster_path(guard, value, writes: bool) -> None:
    """Refuse network, inline-XML, driver-prefixed, VRT and out-of-work-dir raster paths (file objects pass)."""
    if not guard.active:
        return
    if hasattr(value, "as_vsi"):  # rasterio's parsed paths
        value = value.as_vsi()
    if not isinstance(value, (str, bytes, os.PathLike)):
        return  # a file object or a MemoryFile: Python-level I/O, audited by the hook
    text = os.fsdecode(os.fspath(value)).strip()
    if text.startswith("<") or "{" in text:
        guard.deny("an inline VRT/XML dataset or a /vsi path with braces is not allowed")
    if "://" in text:
        guard.deny(f"opening '{text}' (a URL or remote file) is not allowed; use the files in the work dir")
    if _DRIVER_PREFIX.match(text):
        guard.deny(f"the driver-prefixed path '{text}' is not allowed; open the file by its plain name")
    if text.startswith("/vsimem/"):
        return  # GDAL's in-memory files
    for prefix in _ARCHIVES:
        if text.startswith(prefix):
            return check_raster_path(guard, text[len(prefix) :] or ".", writes)
    if text.startswith("/vsi"):
        guard.deny(f"the virtual file system path '{text}' is not allowed (network or system access)")
    if text.lower().endswith((".vrt", ".ovf")):
        guard.deny("VRT files are not allowed (they can point at any file); write GeoTIFFs instead")
    guard.check_write(text) if writes else guard.check_read(text)
    if not writes:
        from guards import refuse_pointer_files

        refuse_pointer_files(guard, text)


def check_config(guard, options: dict) -> None:
    """GDAL configuration that reopens the network (curl, cloud credentials) or loads plug-in code is refused."""
    if not guard.active:
        return
    for key in options:
        if any(marker in str(key).upper() for marker in _CONFIG_MARKERS):
            guard.deny(f"the GDAL option '{key}' is not allowed in the sandbox")


def install_if_loaded(guard) -> bool:
    """Wrap rasterio's entry points once it is imported (preloaded or imported by a cell); True when wrapped."""
    rasterio = sys.modules.get("rasterio")
    if rasterio is None or getattr(rasterio.open, _WRAPPED, False):
        return rasterio is not None
    try:
        import rasterio.env as env
        import rasterio.io as rio
        import rasterio.shutil as rshutil
    except Exception:  # noqa: BLE001 - a half-installed rasterio: nothing to guard, its import failed for the code too
        return False
    rasterio.open = _checked_open(rasterio.open, guard)
    for cls, writes in ((rio.DatasetReader, False), (rio.DatasetWriter, True), (rio.BufferedDatasetWriter, True)):
        cls.__init__ = _checked_init(cls.__init__, guard, writes)
    rshutil.copy = _checked_pair(rshutil.copy, guard)
    rshutil.copyfiles = _checked_pair(rshutil.copyfiles, guard)
    rshutil.delete = _checked_one(rshutil.delete, guard, True)
    rshutil.exists = _checked_one(rshutil.exists, guard, False)
    env.Env.__init__ = _checked_env(env.Env.__init__, guard)
    for name in ("setenv", "defenv"):
        setattr(env, name, _checked_options(getattr(env, name), guard))
    return True


def _mark(wrapper, func):
    wrapper.__name__ = getattr(func, "__name__", "rasterio_call")
    wrapper.__doc__ = getattr(func, "__doc__", None)
    setattr(wrapper, _WRAPPED, True)
    return wrapper


def _checked_open(func, guard):
    def open(fp, mode="r", *args, **kwargs):  # noqa: A001 - keeps rasterio.open's name
        check_raster_path(guard, fp, writes=str(mode) != "r")
        if str(mode) == "r+":
            check_raster_path(guard, fp, writes=False)
        return func(fp, mode, *args, **kwargs)

    return _mark(open, func)


def _checked_init(init, guard, writes: bool):
    def __init__(self, *args, **kwargs):  # noqa: N807 - replaces a class's __init__
        check_raster_path(guard, args[0] if args else kwargs.get("path"), writes)
        init(self, *args, **kwargs)

    return _mark(__init__, init)


def _checked_pair(func, guard):
    def copy(src, dst, *args, **kwargs):
        check_raster_path(guard, src, writes=False)
        check_raster_path(guard, dst, writes=True)
        return func(src, dst, *args, **kwargs)

    return _mark(copy, func)


def _checked_one(func, guard, writes: bool):
    def call(path, *args, **kwargs):
        check_raster_path(guard, path, writes)
        return func(path, *args, **kwargs)

    return _mark(call, func)


def _checked_env(init, guard):
    from rasterio.session import DummySession

    def __init__(self, session=None, aws_unsigned=False, profile_name=None, *args, **options):  # noqa: N807
        credentials = session is not None and type(session) is not DummySession
        if guard.active and (credentials or aws_unsigned or profile_name):
            guard.deny("cloud sessions and credentials are not allowed in the sandbox")
        check_config(guard, options)
        init(self, session, aws_unsigned, profile_name, *args, **options)

    return _mark(__init__, init)


def _checked_options(func, guard):
    def call(**options):
        check_config(guard, options)
        return func(**options)

    return _mark(call, func)
