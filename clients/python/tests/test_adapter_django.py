"""The Django fields' round trip (settings configured here, the postgres
backend from the libpq environment)."""
from __future__ import annotations

import os

import pytest

import pgkuid
from conftest import INT_TYPES, RoundTrip, require_module

django = require_module("django")
require_module("psycopg2")


@pytest.fixture(scope="module")
def connection(server):
    """Django's connection to the test server, in the tests' schema."""
    from django.conf import settings
    if not settings.configured:
        settings.configure(
            DATABASES={"default": {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": os.environ.get("PGDATABASE", ""),
                "USER": os.environ.get("PGUSER", ""),
                "HOST": os.environ.get("PGHOST", ""),
                "PORT": os.environ.get("PGPORT", ""),
                "OPTIONS": {"options": server.libpq_options},
            }},
            INSTALLED_APPS=[], USE_TZ=True, TIME_ZONE="UTC",
            DEFAULT_AUTO_FIELD="django.db.models.AutoField")
        django.setup()
    from django.db import connection
    yield connection
    connection.close()


def model_of(type_name):
    """A model whose primary key is a field of type_name left to the DEFAULT."""
    from django.db import models

    import pgkuid.django
    field = getattr(pgkuid.django, pgkuid.TYPES[type_name].__name__ + "Field")
    meta = type("Meta", (), {"app_label": "uid_tests", "db_table": "django_%s" % type_name})
    return type("Thing" + pgkuid.TYPES[type_name].__name__, (models.Model,), {
        "__module__": __name__, "Meta": meta,
        "id": field(primary_key=True, db_generated=True),
        "n": models.IntegerField(),
    })


@pytest.mark.parametrize("type_name", list(pgkuid.TYPES))
def test_round_trip(server, connection, type_name):
    """objects.create() leaves the ID to the column's DEFAULT (set as a
    RunSQL migration would) and gets it back; the IDs read are the class;
    filter(id__gte=boundary) uses the primary key and selects what the
    server's boundary selects."""
    model = model_of(type_name)
    table = model._meta.db_table
    server.execute("DROP TABLE IF EXISTS %s" % table)
    with connection.schema_editor() as editor:
        editor.create_model(model)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE %s ALTER COLUMN id SET DEFAULT %s_new()" % (table, type_name))
        cursor.execute("SET enable_seqscan = off")

    made = []

    def insert(n):
        made.extend(model.objects.create(n=i) for i in range(n))

    RoundTrip(
        server, table, type_name,
        insert=insert,
        read_all=lambda: list(model.objects.values_list("id", flat=True)),
        select_from=lambda b: [m.id for m in model.objects.filter(id__gte=b)],
        explain=lambda b: model.objects.filter(id__gte=b).values_list("id").explain(),
    ).check()
    # create() got the IDs back from RETURNING, as values
    assert all(type(m.id) is pgkuid.TYPES[type_name] for m in made)
    assert sorted(m.id for m in made) == sorted(model.objects.values_list("id", flat=True))
    assert model.objects.get(id=made[0].id).n == made[0].n
    if type_name in INT_TYPES:         # an int is bigint::type
        assert model.objects.get(id=int(made[0].id)).id == made[0].id
    assert list(model.objects.order_by("id").values_list("id", flat=True)) == sorted(m.id for m in made)


def test_fields_deconstruct(connection):
    """Fields rebuild from deconstruct(), as migrations do; db_type is the type's name."""
    import pgkuid.django
    for field in (pgkuid.django.SnoField(primary_key=True, db_generated=True),
                  pgkuid.django.MuidField(db_generated=True, editable=True, blank=False),
                  pgkuid.django.SnowflakeSiField(epoch=1072915200000, index_bits=4),
                  pgkuid.django.Uid60Field(null=True)):
        name, path, args, kwargs = field.deconstruct()
        assert path.startswith("pgkuid.django.")
        again = getattr(pgkuid.django, path.rsplit(".", 1)[1])(*args, **kwargs)
        assert again.deconstruct()[1:] == (path, args, kwargs)
        assert (again.editable, again.blank, again.null) == (field.editable, field.blank, field.null)
        assert again.db_type(connection) == field.value_class.type_name
    field = pgkuid.django.SnowflakeSiField(index_bits=4)
    assert field.to_python("4097").machine == 256
    from django.core.exceptions import ValidationError
    with pytest.raises(ValidationError, match="invalid input syntax for type sno"):
        pgkuid.django.SnoField().to_python("nope")


def test_db_returning_defers_to_django(monkeypatch):
    """db_returning is db_generated, or what Django's own Field says (from
    Django 5.0 a property, true for a field with a db_default): a field
    of this package keeps Django's RETURNING of a db_default."""
    from django.db import models

    import pgkuid.django
    assert pgkuid.django.SnoField(db_generated=True).db_returning is True
    assert pgkuid.django.SnoField().db_returning is False      # Django 3.2: a class attribute
    monkeypatch.setattr(models.Field, "db_returning",
                        property(lambda self: getattr(self, "wants_returning", False)),
                        raising=False)
    field = pgkuid.django.Uid60Field()
    assert field.db_returning is False
    field.wants_returning = True            # as Django 5's property for a db_default
    assert field.db_returning is True


def test_int_values():
    """An int is a value of the 8-byte types' fields (bigint::type), with
    the server's range check; not of sno and muid."""
    from django.core.exceptions import ValidationError

    import pgkuid.django
    field = pgkuid.django.SnowflakeSiField(index_bits=4)
    value = field.to_python(4097)
    assert (value, value.index_bits, value.machine) == (pgkuid.SnowflakeSi.from_int(4097), 4, 256)
    assert field.get_prep_value(4097) == "4097"
    u = pgkuid.Uid60.from_int(1 << 40)
    assert pgkuid.django.Uid60Field().get_prep_value(int(u)) == str(u)
    r = pgkuid.Revts8.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH)
    assert pgkuid.django.Revts8Field().to_python(int(r)) == r
    for field, bad in ((pgkuid.django.SnowflakeSiField(), -1), (pgkuid.django.Uid60Field(), 1 << 60),
                       (pgkuid.django.Revts8Field(), -1),       # reserved bits set
                       (pgkuid.django.SnoField(), 5), (pgkuid.django.Uid60Field(), True)):
        with pytest.raises(ValidationError):
            field.to_python(bad)


def test_generated_keys_are_not_edited():
    """A key the DEFAULT makes has no box in forms (unless editable=True);
    an editable field's box takes empty as None and refuses in the
    server's words."""
    from django.core.exceptions import ValidationError

    import pgkuid.django
    assert pgkuid.django.SnoField(primary_key=True, db_generated=True).editable is False
    assert pgkuid.django.SnoField(db_generated=True, editable=True).editable is True
    box = pgkuid.django.Revts8Field(null=True, blank=True).formfield()
    assert box.clean("") is None and box.clean("  ") is None
    r = pgkuid.Revts8.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH)
    assert box.clean(" %s " % r) == r and box.prepare_value(r) == str(r)
    with pytest.raises(ValidationError, match="invalid input syntax for type revts8"):
        box.clean("nope")
    with pytest.raises(ValidationError):
        pgkuid.django.Revts8Field().formfield().clean("")      # required


def test_json_encoder(connection):
    """UidJSONEncoder writes the values as their text, Django's types as
    DjangoJSONEncoder does; JsonResponse takes it."""
    import json
    from datetime import datetime, timezone

    from django.core.serializers.json import DjangoJSONEncoder
    from django.http import JsonResponse

    import pgkuid.django
    s = pgkuid.Sno.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH)
    u = pgkuid.Uid60.from_int(1 << 40)
    t = datetime(2026, 1, 2, tzinfo=timezone.utc)
    data = {"ids": [s, u], "at": t}
    assert json.loads(json.dumps(data, cls=pgkuid.django.UidJSONEncoder)) \
        == {"ids": [str(s), str(u)], "at": json.loads(json.dumps(t, cls=DjangoJSONEncoder))}
    response = JsonResponse(data, encoder=pgkuid.django.UidJSONEncoder)
    assert json.loads(response.content)["ids"] == [str(s), str(u)]
    with pytest.raises(TypeError):
        json.dumps(object(), cls=pgkuid.django.UidJSONEncoder)
