"""Short text notation for actions, derived from their msgspec Struct fields.

An action ``Cast(colour="red", all=True)`` tagged ``"cast"`` reads ``cast red y``:
the tag, then each field in declaration order, separated by spaces. Trailing
fields equal to their defaults are left out. Field values:

- int: decimal; str and string enums: the text itself (no spaces, never ``-``);
- bool: ``y`` / ``n``; None: ``-``;
- tuple[X, ...]: items joined by ``,`` (``()`` when empty).

Because the text is derived from the types, ``parse(str(a)) == a`` holds for
every action of every game without per-game code (the round-trip the tests check),
and each action has exactly one spelling: ``parse`` refuses any other text
(``fill 03``, ``fill +3``, a trailing default written out, doubled spaces).
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Iterable
from typing import ClassVar, Generic, Literal, TypeVar, get_args, get_origin

import msgspec

from .errors import NotationError

_bin = msgspec.msgpack.Encoder()


class Action(msgspec.Struct, frozen=True, tag_field="t", kw_only=False):
    """Base of every action. Subclasses set ``tag="..."``; instances are hashable."""

    notation_tag: ClassVar[str] = ""

    def __str__(self) -> str:
        return encode(self)


def _tag_of(cls: type) -> str:
    # Read from the class's own config: msgspec.inspect would rebuild type info
    # on every call, and notation is on the hot path (legal() sorts by it).
    tag = cls.__struct_config__.tag  # type: ignore[attr-defined]
    if not isinstance(tag, str):
        raise TypeError(f"{cls.__name__} needs a string tag for notation")
    return tag


def _encode_value(v: object) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "y" if v else "n"
    if isinstance(v, enum.Enum):
        return _encode_value(v.value)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        if not v or " " in v or "," in v or v == "-" or v == "()":
            raise NotationError(f"text {v!r} cannot appear in notation")
        return v
    if isinstance(v, tuple):
        if not v:
            return "()"
        return ",".join(_encode_value(x) for x in v)
    raise NotationError(f"value of type {type(v).__name__} has no notation")


def encode(action: msgspec.Struct) -> str:
    """The notation of one action."""
    cls = type(action)
    names: tuple[str, ...] = cls.__struct_fields__
    defaults: tuple[object, ...] = cls.__struct_defaults__
    values = [getattr(action, n) for n in names]
    # Drop trailing fields that equal their defaults, for short records.
    # Defaults belong to the last len(defaults) fields.
    first_default = len(names) - len(defaults)
    n = len(values)
    while n > first_default and values[n - 1] == defaults[n - 1 - first_default]:
        n -= 1
    return " ".join([_tag_of(cls), *(_encode_value(v) for v in values[:n])])


def _parser_for(tp: object) -> Callable[[str], object]:
    # `tp` is a type expression from get_type_hints (a class, a Union, a Literal...).
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) != 1:
            raise TypeError(f"notation supports only X | None unions, not {tp}")
        inner = _parser_for(args[0])

        def opt(s: str) -> object:
            return None if s == "-" else inner(s)

        return opt
    if origin is tuple:
        targs = get_args(tp)
        if len(targs) != 2 or targs[1] is not Ellipsis:
            raise TypeError(f"notation supports tuple[X, ...], not {tp}")
        inner = _parser_for(targs[0])

        def tup(s: str) -> object:
            if s == "()":
                return ()
            return tuple(inner(x) for x in s.split(","))

        return tup
    if origin is Literal:
        allowed = get_args(tp)

        def lit(s: str) -> object:
            for a in allowed:
                if _encode_value(a) == s:
                    return a
            raise NotationError(f"{s!r} is not one of {', '.join(map(str, allowed))}")

        return lit
    if tp is bool:

        def boolean(s: str) -> bool:
            if s in ("y", "n"):
                return s == "y"
            raise NotationError(f"{s!r} is not y or n")

        return boolean
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        by_text = {_encode_value(m.value): m for m in tp}

        def en(s: str) -> object:
            try:
                return by_text[s]
            except KeyError:
                raise NotationError(f"{s!r} is not one of {', '.join(by_text)}") from None

        return en
    if tp is int:

        def integer(s: str) -> int:
            try:
                return int(s)
            except ValueError:
                raise NotationError(f"{s!r} is not a whole number") from None

        return integer
    if tp is str:
        return lambda s: s
    raise TypeError(f"no notation for field type {tp}")


A = TypeVar("A", bound=Action)
"""One game's action type: usually the union of its action classes."""

_FieldParser = tuple[str, Callable[[str], object], bool]
"""A field's name, the parser of its notation, and whether it has a default."""


class Codec(Generic[A]):
    """Parses notation for one game's union of action types.

    Generic in that union, so ``parse`` and ``decode_bin`` return the game's own
    action type: ``Codec[CrownAction]((Bait, Place, ...))``. Each game names its
    type once, where it builds its codec; mypy checks each class belongs to it.
    """

    def __init__(self, action_types: Iterable[type[A]]) -> None:
        self._types: dict[str, tuple[type[A], list[_FieldParser]]] = {}
        for cls in action_types:
            hints = typing.get_type_hints(cls)
            fields: list[_FieldParser] = []
            for f in msgspec.structs.fields(cls):
                fields.append(
                    (
                        f.name,
                        _parser_for(hints[f.name]),
                        f.default is not msgspec.NODEFAULT or f.default_factory is not msgspec.NODEFAULT,
                    )
                )
            tag = _tag_of(cls)
            if tag in self._types:
                raise TypeError(f"two action types share the tag {tag!r}")
            self._types[tag] = (cls, fields)
        self.types: tuple[type[A], ...] = tuple(c for c, _ in self._types.values())
        self._by_type = frozenset(self.types)
        self._decoder = msgspec.msgpack.Decoder(typing.Union[self.types] if len(self.types) > 1 else self.types[0])

    def parse(self, text: str) -> A:
        """The action written as `text`; raises NotationError naming what is wrong.

        Only the action's own notation (``str(action)``) parses: the inverse of
        `encode`, so ``parse(t)`` succeeds exactly when ``str(parse(t)) == t``.
        """
        parts = text.split()
        if not parts:
            raise NotationError("empty action")
        tag, *args = parts
        entry = self._types.get(tag)
        if entry is None:
            raise NotationError(f"unknown action {tag!r}; known: {', '.join(sorted(self._types))}")
        cls, fields = entry
        if len(args) > len(fields):
            raise NotationError(f"{tag!r} takes at most {len(fields)} values, got {len(args)}")
        kwargs: dict[str, object] = {}
        for (name, parse, _has_default), arg in zip(fields, args):
            try:
                kwargs[name] = parse(arg)
            except NotationError as e:
                raise NotationError(f"{tag} {name}: {e}") from None
        for name, _, has_default in fields[len(args) :]:
            if not has_default:
                raise NotationError(f"{tag!r} is missing its {name}")
        try:
            action = cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise NotationError(f"{tag}: {e}") from None
        # One spelling per action, so records and the wire cannot carry the same
        # move in two texts: `fill 03`, `fill +3`, `fill 0_3`, `end -` (a default
        # written out) and stray spaces are refused, naming the one accepted form.
        canonical = encode(action)
        if canonical != text:
            raise NotationError(f"{text!r} is not written as this game writes it: {canonical!r}")
        return action

    def malformed(self, action: object) -> str | None:
        """Why `action` is not a well-formed action of this game, or None if it is.

        Well-formed: an instance of one of the game's action types whose fields
        have their declared types (msgspec's strict validation) and which has a
        notation. Structs are not validated on construction, so ``Place(["x"])``
        is an object of the right class that no rule code should ever see.
        """
        cls = type(action)
        if cls not in self._by_type:
            return f"{action!r} is not an action of this game"
        assert isinstance(action, msgspec.Struct)
        try:
            # The binary round trip validates every field strictly (no bool or
            # float for an int, no list for a tuple) and refuses ints too big to send.
            again = msgspec.msgpack.decode(_bin.encode(action), type=cls)
            encode(action)
        except (TypeError, ValueError, OverflowError, msgspec.ValidationError) as e:
            return f"'{_tag_of(cls)}' with values that are not its fields' types ({e})"
        if again != action:
            return f"'{_tag_of(cls)}' with values that are not its fields' types"
        return None

    def encode_bin(self, action: A) -> bytes:
        return msgspec.msgpack.encode(action)

    def decode_bin(self, data: bytes) -> A:
        try:
            action: A = self._decoder.decode(data)
            return action
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise NotationError(f"not an action: {e}") from None
