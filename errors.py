"""One exception hierarchy for GeoClerk: every error carries a user-facing message and a fix."""

from .lang import tr


class GeoClerkError(Exception):
    """Base error: `message` says what went wrong, `fix` what the user can do about it."""

    def __init__(self, message: str, fix: str = "", details: str = ""):
        super().__init__(message)
        self.message = message
        self.fix = fix
        self.details = details

    def user_text(self) -> str:
        """The message and the fix as one sentence pair, for a dock, a log or a CLI report."""
        return f"{self.message} {self.fix}".strip()


class ValidationError(GeoClerkError):
    """A tool call's arguments do not fit its schema or the data (unknown field, bad value...)."""


class ToolError(GeoClerkError):
    """A tool ran and failed on the data (empty input, CRS problem, algorithm error...)."""


class RouterError(GeoClerkError):
    """The router could not be trained or loaded."""


class LLMError(GeoClerkError):
    """A model endpoint failed: dead server, refused key, unknown model, malformed reply."""


class SandboxError(GeoClerkError):
    """The code-generation sandbox refused or could not run a script."""


class DependencyError(GeoClerkError):
    """A Python package GeoClerk needs is missing or too old."""


class CancelledError(GeoClerkError):
    """The user cancelled the request (by default it says so, in the user's language)."""

    def __init__(self, message: str = "", fix: str | None = None, details: str = ""):
        super().__init__(
            message or tr("The request was cancelled."), tr("Nothing was changed.") if fix is None else fix, details
        )
