"""The background task that serves one request: the core runs in run(), the GUI hears in finished()."""

from __future__ import annotations

import threading
import traceback
from pathlib import Path

from qgis.core import QgsTask

from ..agent.pipeline import run_request
from . import engine
from .i18n import tr


def in_python_thread(fn, *args, **kwargs):
    """Call fn in a Python-created thread and wait for it.

    pyproj segfaults in PROJ's CRS lookup when used from the QThreadPool threads QgsTask.run()
    executes in (reproduced here: CRS creation in consecutive QgsTasks crashes), most likely
    because its per-thread context lives in Python thread-local state that does not persist in
    threads Python did not create. From a Python-created thread it works.
    """
    box: dict = {}

    def target():
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the calling thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="geoclerk-worker", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")


class AgentTask(QgsTask):
    """Runs run_request off the main thread. Nothing GUI or project-related happens in run()."""

    def __init__(self, request: str, store, infos, out_dir: Path, config, on_finished=None, runner=None, registry=None,
                 previous=None, answers=None):  # fmt: skip
        super().__init__(f"GeoClerk: {request[:60]}", QgsTask.Flag.CanCancel)
        self.request = request
        self.store = store
        self.infos = infos
        self.out_dir = Path(out_dir)
        self.config = config
        self.on_finished = on_finished
        self.runner = runner or run_request
        self.previous = list(previous or [])  # names of the previous request's result layers (a follow-up's 'them')
        self.registry = registry  # built on the main thread: binding Processing creates QObjects
        self.answers = dict(answers or {})  # a question card's answer: the request resumes with it
        self.cancel_event = threading.Event()
        self.report = None
        self.error: str | None = None
        self.details: str = ""
        self.progress_message = ""
        self.was_cancelled = False

    def _progress(self, percent: float, message: str = "") -> None:
        self.progress_message = message
        self.setProgress(max(0.0, min(100.0, float(percent))))

    def _serve(self):
        if not engine.router_ready():
            self._progress(1, tr("Preparing the router (first request only)…"))
        return self.runner(
            self.request,
            self.store,
            self.out_dir,
            config=self.config,
            registry=self.registry,
            router=engine.router(),
            layer_infos=self.infos,
            progress=self._progress,
            cancel_event=self.cancel_event,
            previous=self.previous,
            **({"answers": self.answers} if self.answers else {}),  # a re-run runner takes no answers
        )

    def run(self) -> bool:
        try:
            self.report = in_python_thread(self._serve)
        except Exception as exc:  # noqa: BLE001 - reported in finished() on the main thread
            self.error = f"{type(exc).__name__}: {exc}"
            self.details = traceback.format_exc()
            return False
        return not self.isCanceled()

    def cancel(self) -> None:
        self.cancel_event.set()
        self.was_cancelled = True
        super().cancel()

    def finished(self, result: bool) -> None:  # noqa: FBT001 - QgsTask's signature
        if self.on_finished is not None:
            self.on_finished(self, result)


class WarmUpTask(QgsTask):
    """Loads the library and the router in the background when the user opens the dock."""

    def __init__(self):
        super().__init__("GeoClerk: preparing the router", QgsTask.Flag.CanCancel)
        self.error: str | None = None

    def run(self) -> bool:
        try:
            in_python_thread(engine.warm_up)
        except Exception as exc:  # noqa: BLE001 - the first request reports any real problem
            self.error = f"{type(exc).__name__}: {exc}"
            return False
        return True
