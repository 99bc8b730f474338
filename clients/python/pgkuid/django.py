"""Django model fields for uid's types.

``SnoField``, ``MuidField``, ``SnowflakeSiField``, ``Revts8Field`` and
``Uid60Field`` make columns of the PostgreSQL types (``db_type()`` is the
type's name) and hold the value classes.  Lookups (``id__gte=Sno.boundary(t)``)
send the value's text, which the server reads as the column's type; for
snowflake_si, revts8 and uid60 an int is taken too, as ``bigint::type``.

``db_generated=True`` leaves the value to the column's DEFAULT (such as
``sno_new()``, set by a ``RunSQL`` migration: Django before 5.0 writes no
database defaults): a row saved with the field None is inserted with
``DEFAULT`` in its place, and the value made is read back with RETURNING.
Such a field is not editable (no box in forms and the admin), unless
``editable=True`` is given.

In a form (the admin's included) an editable field is a text box: empty
is None, other text is read as the server reads it, and refused text is the
form's error in the server's words.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Type

from django import forms
from django.core import exceptions
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models.expressions import Expression
from django.db.models.query_utils import DeferredAttribute

from ._adapt import Reader, reader
from ._core import UidError
from ._types import (DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, Epoch, Muid,
                     Revts8, Sno, SnowflakeSi, Uid60, UidValue)

__all__ = ["SnoField", "MuidField", "SnowflakeSiField", "Revts8Field", "Uid60Field",
           "UidJSONEncoder"]


class _ColumnDefault(Expression):
    """``DEFAULT`` in an INSERT's VALUES: the column's default makes the value."""

    def as_sql(self, compiler: Any, connection: Any) -> Tuple[str, List[Any]]:
        return "DEFAULT", []


class _ValueAttribute(DeferredAttribute):
    """The model attribute: what is assigned (the value RETURNING brings
    back included, which Django before 4.1 passes by from_db_value) is held
    as the value class when it is one's text."""

    def __set__(self, instance: Any, value: Any) -> None:
        if isinstance(value, str):
            try:
                value = self.field.to_python(value)
            except exceptions.ValidationError:
                pass    # kept as given: full_clean() reports it
        instance.__dict__[self.field.attname] = value


class UidJSONEncoder(DjangoJSONEncoder):
    """Django's JSON encoder (``JsonResponse(data, encoder=...)``,
    ``JSONField(encoder=...)``), writing a value of uid's types as its text,
    as the server's ``to_json()`` does."""

    def default(self, o: Any) -> Any:
        if isinstance(o, UidValue):
            return str(o)
        return super().default(o)


class UidFormField(forms.CharField):
    """A form's text box for a value of one of uid's types: empty is None
    (a NULL), other text the model field's value or its error."""

    def __init__(self, *, model_field: "UidField", **kwargs: Any) -> None:
        self.model_field = model_field
        kwargs.setdefault("empty_value", None)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        return self.model_field.to_python(value)

    def prepare_value(self, value: Any) -> Any:
        return value if value is None or isinstance(value, str) else str(value)


class UidField(models.Field):
    """A column of one of uid's types, holding its value class."""

    value_class: Type[UidValue] = UidValue
    descriptor_class = _ValueAttribute
    empty_strings_allowed = False       # no ID is empty: an unset field is None
    default_error_messages = {"invalid": "%(error)s"}

    def __init__(self, *args: Any, db_generated: bool = False, **kwargs: Any) -> None:
        self.db_generated = db_generated
        if db_generated:
            kwargs.setdefault("blank", True)
            kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    @property
    def description(self) -> str:  # type: ignore[override]
        return "uid's %s" % self.value_class.type_name

    def deconstruct(self) -> Tuple[str, str, List[Any], Dict[str, Any]]:
        name, path, args, kwargs = super().deconstruct()
        if self.db_generated:
            kwargs["db_generated"] = True
            # what db_generated implies is left out, what overrides it kept
            for option, implied in (("blank", True), ("editable", False)):
                kwargs.pop(option, None)
                if getattr(self, option) is not implied:
                    kwargs[option] = getattr(self, option)
        return name, path, args, kwargs

    def db_type(self, connection: Any) -> str:
        return self.value_class.type_name

    @property
    def db_returning(self) -> bool:  # type: ignore[override]
        """A value the database makes is read back from the INSERT: with
        db_generated, or where Django's own rule says so (from 5.0, a field
        with a db_default; before, a plain class attribute, False)."""
        return self.db_generated or bool(getattr(super(), "db_returning", False))

    @property
    def _reader(self) -> Reader:
        return reader(self.value_class.type_name)

    def parse(self, text: str) -> UidValue:
        """The value of text (the server's input function's rules)."""
        return self._reader.from_text(text)

    def to_python(self, value: Any) -> Optional[UidValue]:
        """value as the value class: itself, parsed from its text, or for
        snowflake_si, revts8 and uid60 an int as ``bigint::type``."""
        if value is None:
            return value
        try:
            return self._reader.coerce(value)
        except (UidError, TypeError) as error:
            raise exceptions.ValidationError(self.error_messages["invalid"], code="invalid",
                                             params={"value": value, "error": error})

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Optional[UidValue]:
        return self.to_python(value)

    def get_prep_value(self, value: Any) -> Optional[str]:
        value = super().get_prep_value(value)
        return None if value is None else str(self.to_python(value))

    def pre_save(self, model_instance: Any, add: bool) -> Any:
        value = super().pre_save(model_instance, add)
        if add and value is None and self.db_generated:
            return _ColumnDefault()
        return value

    def formfield(self, **kwargs: Any) -> Any:
        return super().formfield(**{"form_class": UidFormField, "model_field": self, **kwargs})

    def value_to_string(self, obj: Any) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else str(value)


class SnoField(UidField):
    """A sno column."""

    value_class = Sno


class MuidField(UidField):
    """A muid column."""

    value_class = Muid


class Revts8Field(UidField):
    """A revts8 column (ordered by time)."""

    value_class = Revts8


class Uid60Field(UidField):
    """A uid60 column."""

    value_class = Uid60


class SnowflakeSiField(UidField):
    """A snowflake_si column; its values are read with the base clock and
    index width given (the server's settings; their defaults by default)."""

    value_class = SnowflakeSi

    def __init__(self, *args: Any, epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                 index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS, **kwargs: Any) -> None:
        SnowflakeSi.from_int(0, epoch, index_bits)   # the server's checks
        self.epoch = epoch
        self.index_bits = index_bits
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Tuple[str, str, List[Any], Dict[str, Any]]:
        name, path, args, kwargs = super().deconstruct()
        if self.epoch != DEFAULT_SNOWFLAKE_SI_EPOCH:
            kwargs["epoch"] = self.epoch
        if self.index_bits != DEFAULT_SNOWFLAKE_SI_INDEX_BITS:
            kwargs["index_bits"] = self.index_bits
        return name, path, args, kwargs

    @property
    def _reader(self) -> Reader:
        return reader("snowflake_si", self.epoch, self.index_bits)

    def to_python(self, value: Any) -> Optional[UidValue]:
        if isinstance(value, SnowflakeSi):
            return value.with_layout(self.epoch, self.index_bits)
        return super().to_python(value)
