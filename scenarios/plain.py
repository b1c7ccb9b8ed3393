"""The file format's classes without pydantic's model machinery (docs/performance.md, "Plain
classes").

The file format (:mod:`scenarios.schema`, :mod:`scenarios.actions`,
:mod:`scenarios.expectations`) is declared as classes with annotated fields, in pydantic's
words — ``Field(...)``, ``model_validator``, ``AfterValidator``, ``ConfigDict`` — but with the
light stand-ins of this module, on the base class :class:`Plain`. Declaring a class this way
costs what any Python class costs; importing pydantic's ``BaseModel`` and ``Field`` and making
each class a pydantic model costs about a third of a short command's time.

The pydantic model of a plain class, its *mirror* (:func:`mirror`), is made only when it is
needed: to generate the core schema pydantic validates with (kept beside the byte code by
:mod:`scenarios.schemasnap`, so a command normally never makes one), the JSON Schema
(``tapeline schema``) and the serialisers (:meth:`Plain.model_dump`). A mirror has the same
name, module, fields (each annotation with these stand-ins replaced by pydantic's own),
defaults, validators and configuration as its class; in the core schema it generates, every
mirror class is then replaced by its plain class (:func:`swap`), so validating makes plain
objects, as pydantic-core makes a model's objects: allocated without ``__init__``, the fields
in ``__dict__``, the fields given in ``__pydantic_fields_set__``.

A plain object behaves as the pydantic model's object does where tapeline uses it: the fields
as attributes, equality (same class, equal fields), ``repr``, ``Class(**fields)`` (validated),
``model_construct``, ``model_dump``, ``model_fields`` and ``model_fields_set``. The tests check that the schema
the mirrors generate is the one pydantic generates from the same declarations, and that every
bundled and malformed file validates into the same objects and errors.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

#: The three attributes pydantic-core sets on an object besides its ``__dict__``.
_SLOTS = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")


class FieldSpec:
    """What ``Field(...)`` was given (pydantic's ``Field`` takes the same arguments)."""

    __slots__ = ("args", "kwargs")

    def __init__(self, args: tuple, kwargs: dict):
        self.args, self.kwargs = args, kwargs

    def __repr__(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"Field({', '.join(parts)})"


def Field(*args: Any, **kwargs: Any) -> Any:
    """pydantic's ``Field``, recorded for the mirror."""
    return FieldSpec(args, kwargs)


class AfterValidator:
    """pydantic's ``AfterValidator``, recorded for the mirror."""

    __slots__ = ("func",)

    def __init__(self, func: Callable):
        self.func = func


def ConfigDict(**kwargs: Any) -> dict:
    """pydantic's ``ConfigDict`` (a mapping)."""
    return dict(kwargs)


def model_validator(*, mode: str) -> Callable:
    """pydantic's ``model_validator``: the function is marked and kept as it is; its mirror
    declares it with pydantic's decorator."""

    def mark(func: Callable) -> Callable:
        func.__model_validator__ = mode  # type: ignore[attr-defined]
        return func

    return mark


class _MirrorFields:
    """A plain class's ``model_fields``: its mirror's (pydantic's ``FieldInfo`` of each field)."""

    def __get__(self, obj: Any, cls: type) -> dict:
        return mirror(cls).model_fields


class Plain:
    """The base of the file format's classes: plain Python objects that pydantic-core's
    validators fill in (module docstring)."""

    __slots__ = _SLOTS
    model_config: dict = {}
    model_fields = _MirrorFields()

    def __init__(self, **data: Any) -> None:
        """Validated, as a pydantic model is (raises ``pydantic.ValidationError``)."""
        _tools(type(self))[0].validate_python(data, self_instance=self)

    @classmethod
    def model_construct(cls, _fields_set: Optional[set] = None, **values: Any):
        """An object with these values and every other field's default, not validated (as
        pydantic's ``model_construct``)."""
        import copy

        obj = cls.__new__(cls)
        fields: dict = {}
        for name in field_names(cls):
            if name in values:
                fields[name] = values[name]
            else:
                has, default = _default(cls, name)
                if has:
                    fields[name] = copy.deepcopy(default)
        object.__setattr__(obj, "__dict__", fields)
        object.__setattr__(obj, "__pydantic_fields_set__", set(values) if _fields_set is None else set(_fields_set))
        object.__setattr__(obj, "__pydantic_extra__", None)
        object.__setattr__(obj, "__pydantic_private__", None)
        return obj

    @property
    def model_fields_set(self) -> set:
        return self.__pydantic_fields_set__

    def model_dump(self, **kwargs: Any) -> Any:
        """pydantic's ``model_dump`` (the same serialiser, made from the mirror)."""
        return _tools(type(self))[1].to_python(self, **kwargs)

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Plain):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # as a pydantic model that is not frozen

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    from typing import ClassVar, get_origin

    return annotation is ClassVar or get_origin(annotation) is ClassVar


def field_names(cls: type) -> list[str]:
    """The fields of a plain class, in pydantic's order (the bases' first)."""
    out: dict[str, None] = {}
    for c in reversed(cls.__mro__):
        for name, annotation in vars(c).get("__annotations__", {}).items():
            if issubclass(c, Plain) and c is not Plain and not _is_classvar(annotation):
                out[name] = None
    return list(out)


def _default(cls: type, name: str) -> tuple[bool, Any]:
    """Whether the field ``name`` of ``cls`` has a default, and which."""
    for c in cls.__mro__:
        if name in vars(c) and name in vars(c).get("__annotations__", {}):
            value = vars(c)[name]
            if isinstance(value, FieldSpec):
                if "default_factory" in value.kwargs:
                    return True, value.kwargs["default_factory"]()
                if value.args and value.args[0] is not ...:
                    return True, value.args[0]
                if "default" in value.kwargs:
                    return True, value.kwargs["default"]
                return False, None
            return True, value
    return False, None


def annotation_of(cls: type, name: str) -> Any:
    """The annotation of the field ``name`` of ``cls``, evaluated (a class whose module says
    ``from __future__ import annotations`` keeps it as text)."""
    for c in cls.__mro__:
        ann = vars(c).get("__annotations__", {})
        if name in ann:
            value = ann[name]
            return eval(value, vars(sys.modules[c.__module__]), dict(vars(c))) if isinstance(value, str) else value
    raise KeyError(name)


# --- the mirrors: pydantic models made from the plain classes -------------------------------

_MIRRORS: dict[type, type] = {}
#: Plain class of each mirror (also of models made with :func:`model`).
_PLAIN: dict[type, type] = {}


def mirror(cls: type) -> type:
    """The pydantic model of the plain class ``cls`` (made once)."""
    got = _MIRRORS.get(cls)
    if got is not None:
        return got
    import typing

    import pydantic

    if cls is Plain:
        return pydantic.BaseModel
    if "_mirror" in vars(cls):  # a class whose model is made elsewhere
        made = vars(cls)["_mirror"].__get__(None, cls)()
        _MIRRORS[cls] = made
        return made
    own = vars(cls).get("__annotations__", {})
    hints = typing.get_type_hints(cls, include_extras=True) if own else {}
    ns: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__}
    annotations = {}
    for name in own:
        if _is_classvar(own[name]) or _is_classvar(hints[name]):
            continue
        annotations[name] = translate(hints[name])
        if name in vars(cls):
            ns[name] = _translate_value(vars(cls)[name])
    ns["__annotations__"] = annotations
    if "model_config" in vars(cls):
        ns["model_config"] = pydantic.ConfigDict(**vars(cls)["model_config"])  # type: ignore[typeddict-item]
    for name, value in vars(cls).items():
        mode = getattr(value, "__model_validator__", None)
        if mode is not None:
            ns[name] = pydantic.model_validator(mode=mode)(value)  # type: ignore[call-overload]
    bases = tuple(mirror(b) for b in cls.__bases__ if issubclass(b, Plain))
    made = type(bases[0])(cls.__name__, bases, ns)
    _MIRRORS[cls] = made
    _PLAIN[made] = cls
    return made


def model(name: str, plain: type, fields: dict[str, tuple[Any, Any]], base: type, module: str, qualname: str,
          doc: Optional[str] = None) -> type:
    """A pydantic model, made from field types written with this module's stand-ins, whose
    objects are ``plain`` objects once :func:`swap` has been applied to its schema (the file's
    top model, whose fields change with the words a file uses). ``fields``: name → (type,
    default or ``...``)."""
    ns: dict[str, Any] = {"__module__": module, "__qualname__": qualname, "__doc__": doc,
                          "__annotations__": {k: translate(t) for k, (t, _) in fields.items()}}
    ns.update({k: _translate_value(d) for k, (_, d) in fields.items() if d is not ...})
    out = type(mirror(base))(name, (mirror(base),), ns)
    _PLAIN[out] = plain
    return out


def translate(t: Any) -> Any:
    """A type written with this module's stand-ins, in pydantic's own words (plain classes
    replaced by their mirrors)."""
    import types
    from typing import Annotated, Literal, Union, get_args, get_origin

    if isinstance(t, type) and issubclass(t, Plain):
        return mirror(t)
    origin, args = get_origin(t), get_args(t)
    if origin is Literal:
        return t
    if origin is Annotated:
        return Annotated[(translate(args[0]), *(_translate_value(m) for m in t.__metadata__))]  # type: ignore[misc]
    if not args or origin is None:
        return t
    new = tuple(a if a is ... else translate(a) for a in args)
    if new == args and all(x is y for x, y in zip(new, args)):
        return t
    if origin in (Union, types.UnionType):
        return Union[new]
    if isinstance(t, types.GenericAlias):
        return types.GenericAlias(origin, new)
    return t.copy_with(new)  # typing's other aliases (typing.List ...)


def _translate_value(v: Any) -> Any:
    """An annotation's metadata or a field's default in pydantic's words (a default that is a
    plain object becomes its mirror's object: pydantic writes it into the JSON Schema)."""
    import pydantic

    if isinstance(v, FieldSpec):
        args = tuple(_translate_value(a) for a in v.args)
        kwargs = {k: (translate(x) if k == "annotation" else _translate_value(x) if k == "default" else x)
                  for k, x in v.kwargs.items()}
        return pydantic.Field(*args, **kwargs)
    if isinstance(v, AfterValidator):
        return pydantic.AfterValidator(v.func)
    if isinstance(v, Plain):
        fields = {k: _translate_value(x) for k, x in v.__dict__.items()}
        return mirror(type(v)).model_construct(_fields_set=set(v.__pydantic_fields_set__), **fields)
    return v


def plain_of(obj: Any) -> Any:
    """The plain class of a mirror (anything else as it is)."""
    return _PLAIN.get(obj, obj) if isinstance(obj, type) else obj


def swap(node: Any) -> Any:
    """A core schema with every mirror class replaced by its plain class, and every mirror's
    object (a default) by the plain object."""
    if type(node) in _PLAIN:
        fields = {k: swap(x) for k, x in node.__dict__.items()}
        return _PLAIN[type(node)].model_construct(_fields_set=set(node.model_fields_set), **fields)
    if isinstance(node, dict):
        return {k: swap(v) for k, v in node.items()}
    if isinstance(node, list):
        return [swap(v) for v in node]
    if isinstance(node, tuple):
        return tuple(swap(v) for v in node)
    return plain_of(node)


def core_schema(m: type) -> dict:
    """The core schema of a pydantic model (made now where its build was deferred), with its
    plain classes in place of the mirrors."""
    m.model_rebuild()
    return swap(m.__pydantic_core_schema__)


def config_of(m: type) -> dict:
    """The validator's configuration of a pydantic model, as pydantic makes it."""
    from pydantic._internal._config import ConfigWrapper

    return ConfigWrapper(m.model_config).core_config(title=m.__name__)  # type: ignore[return-value]


_TOOLS: dict[type, tuple] = {}


def _tools(cls: type) -> tuple:
    """The validator and serialiser of a plain class, made from its mirror's core schema."""
    got = _TOOLS.get(cls)
    if got is None:
        from pydantic_core import SchemaSerializer, SchemaValidator

        m = mirror(cls)
        schema, config = core_schema(m), config_of(m)
        got = _TOOLS[cls] = (SchemaValidator(schema, config), SchemaSerializer(schema, config))  # type: ignore[arg-type]
    return got
