"""The package version, in a module of its own so that every layer can report it
(results lines, the service's OpenAPI page) without importing the package root."""

__version__ = "0.1.0"
