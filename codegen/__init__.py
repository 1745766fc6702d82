"""Code generation: the worker that writes and repairs scripts, and the sandbox that runs them."""
