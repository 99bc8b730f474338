"""The migration the manual gives: the extension before the first model
that uses its types, and each key's DEFAULT."""
from django.contrib.postgres.operations import CreateExtension
from django.db import migrations, models

import pgkuid.django

TYPES = {"Sno": ("sno", pgkuid.django.SnoField), "Muid": ("muid", pgkuid.django.MuidField),
         "SnowflakeSi": ("snowflake_si", pgkuid.django.SnowflakeSiField),
         "Revts8": ("revts8", pgkuid.django.Revts8Field),
         "Uid60": ("uid60", pgkuid.django.Uid60Field)}


def thing(name, type_name, field):
    """The model <name>Thing, and its key's DEFAULT <type_name>_new()."""
    table = "things_%sthing" % name.lower()
    return [
        migrations.CreateModel(name=name + "Thing", fields=[
            ("id", field(db_generated=True, primary_key=True, serialize=False)),
            ("name", models.CharField(max_length=40)),
            ("other", field(blank=True, null=True)),
        ]),
        migrations.RunSQL("ALTER TABLE %s ALTER COLUMN id SET DEFAULT %s_new()" % (table, type_name),
                          "ALTER TABLE %s ALTER COLUMN id DROP DEFAULT" % table),
    ]


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [CreateExtension("uid")] + [
        operation for name, (type_name, field) in TYPES.items()
        for operation in thing(name, type_name, field)]
