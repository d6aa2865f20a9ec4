"""The part of pydantic's ``BaseModel`` and ``Field`` that the report models use, for the
browser only: ``getaway-ref site`` puts this module into the site's zip as ``pydantic``.

Why: pydantic's core is compiled code that the ``pyodide`` npm package does not carry, and
the site takes nothing from the network. With this, the JSON of ``check --format json`` and
``legal --format json`` is written in the page by the very models and sinks that write it on
the command line (``reports/report.py``, ``table/views.py``): the shape is told once, there.
Nothing is validated (the models are filled by our own code, never by a user); a model keeps
its fields in pydantic's order (a base class's first) and dumps JSON as pydantic does
(compact, or indented by ``indent``; characters kept as they are, not escaped).
``tests/test_site.py`` compares the page's report with the command line's, field for field.
"""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

_MISSING: Any = object()


class FieldInfo:
    """A field's default (or the factory of one); the rest of what Field takes is for schemas."""

    def __init__(self, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None) -> None:
        self.default = default
        self.default_factory = default_factory

    def value(self) -> Any:
        if self.default_factory is not None:
            return self.default_factory()
        return copy.deepcopy(self.default)  # pydantic copies a mutable default for each model


def Field(default: Any = _MISSING, *, default_factory: Callable[[], Any] | None = None,
          **_schema: Any) -> Any:
    return FieldInfo(default, default_factory)


def ConfigDict(**settings: Any) -> dict[str, Any]:
    """A model's settings (the review's report forbids extra fields): kept, not enforced."""
    return dict(settings)


class BaseModel:
    """Fields from the class's annotations, a base class's first; defaults from the class."""

    __fields__: ClassVar[dict[str, FieldInfo]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, FieldInfo] = {}
        for klass in reversed(cls.__mro__):
            for name in inspect.get_annotations(klass):
                if name.startswith("_"):
                    continue
                given = klass.__dict__.get(name, _MISSING)
                fields[name] = given if isinstance(given, FieldInfo) else FieldInfo(given)
        cls.__fields__ = fields

    def __init__(self, **values: Any) -> None:
        for name, info in self.__fields__.items():
            if name in values:
                setattr(self, name, values.pop(name))
            elif info.default is _MISSING and info.default_factory is None:
                raise TypeError(f"{type(self).__name__}: {name} is required")
            else:
                setattr(self, name, info.value())
        if values:
            raise TypeError(f"{type(self).__name__}: no field {', '.join(values)}")

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        for name in self.__fields__:
            yield name, getattr(self, name)

    @classmethod
    def model_rebuild(cls) -> None:
        """Nothing to rebuild: no annotation is read."""

    def model_dump(self, exclude_none: bool = False) -> dict[str, Any]:
        return {k: _plain(v, exclude_none) for k, v in self if not (exclude_none and v is None)}

    def model_dump_json(self, *, indent: int | None = None, exclude_none: bool = False) -> str:
        return json.dumps(self.model_dump(exclude_none), ensure_ascii=False, allow_nan=False, indent=indent,
                          separators=(",", ": ") if indent is not None else (",", ":"))


def _plain(value: Any, exclude_none: bool) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_none)
    if isinstance(value, list | tuple):
        return [_plain(v, exclude_none) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, exclude_none) for k, v in value.items()}
    return value
