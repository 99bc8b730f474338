"""A model per type: its key left to the column's DEFAULT (db_generated,
so not editable), and a field of the same type that forms edit."""
from django.db import models

import pgkuid.django

FIELDS = [pgkuid.django.SnoField, pgkuid.django.MuidField, pgkuid.django.SnowflakeSiField,
          pgkuid.django.Revts8Field, pgkuid.django.Uid60Field]


def thing(field):
    """The model ``<Class>Thing`` of field's type."""
    return type(field.value_class.__name__ + "Thing", (models.Model,), {
        "__module__": __name__,
        "__str__": lambda self: self.name,
        "id": field(primary_key=True, db_generated=True),
        "name": models.CharField(max_length=40),
        "other": field(null=True, blank=True),
    })


THINGS = [thing(field) for field in FIELDS]
globals().update((model.__name__, model) for model in THINGS)
