"""The admin over a model keyed by each type, through Django's test client,
in the database the test runner made with the migrations (the extension
and the DEFAULTs included)."""
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import TestCase

from .models import THINGS


class Admin(TestCase):

    @classmethod
    def setUpTestData(cls):
        User.objects.create_superuser("admin", "admin@example.com", "secret")

    def setUp(self):
        response = self.client.post("/admin/login/", {"username": "admin", "password": "secret",
                                                      "next": "/admin/"})
        self.assertRedirects(response, "/admin/")

    def url(self, model, page, obj=None):
        base = "/admin/things/%s/" % model._meta.model_name
        return base + ("add/" if obj is None else "%s/%s/" % (quote(str(obj.pk)), page))

    def test_migrations_are_the_models(self):
        """The hand-written migration is what makemigrations makes of the
        models: the fields deconstruct as they were declared."""
        call_command("makemigrations", "things", check=True, dry_run=True, verbosity=0)

    def test_add_and_change(self):
        for model in THINGS:
            with self.subTest(model=model.__name__):
                self.add_and_change(model)

    def add_and_change(self, model):
        type_name = model._meta.pk.value_class.type_name
        value_class = model._meta.pk.value_class
        # the add page has no box for the key, and one for the other field
        page = self.client.get(self.url(model, "add"))
        self.assertNotContains(page, 'name="id"')
        self.assertContains(page, 'name="other"')
        # adding with the other field empty: the DEFAULT makes the key, other is NULL
        response = self.client.post(self.url(model, "add"), {"name": "first", "other": ""})
        self.assertEqual(response.status_code, 302, response.content.decode()[:3000])
        obj = model.objects.get(name="first")
        self.assertIs(type(obj.pk), value_class)
        self.assertIsNone(obj.other)
        with connection.cursor() as cursor:
            cursor.execute("SELECT id::text FROM %s WHERE name = 'first'" % model._meta.db_table)
            self.assertEqual(cursor.fetchone()[0], str(obj.pk))
        # the change page, found by the key, has no box for it either, and
        # saves the other field from its text
        page = self.client.get(self.url(model, "change", obj))
        self.assertContains(page, 'value="first"')
        self.assertNotContains(page, 'name="id"')
        response = self.client.post(self.url(model, "change", obj),
                                    {"name": "renamed", "other": str(obj.pk)})
        self.assertEqual(response.status_code, 302, response.content.decode()[:3000])
        again = model.objects.get(pk=obj.pk)
        self.assertEqual((again.name, again.other), ("renamed", obj.pk))
        # text the type refuses is the form's error in the server's words, not a 500
        response = self.client.post(self.url(model, "change", obj), {"name": "x", "other": "nope"})
        self.assertContains(response, "invalid input syntax for type %s" % type_name)
        self.assertEqual(model.objects.get(pk=obj.pk).name, "renamed")
        # emptied again: NULL
        response = self.client.post(self.url(model, "change", obj), {"name": "y", "other": ""})
        self.assertEqual(response.status_code, 302)
        self.assertIsNone(model.objects.get(pk=obj.pk).other)
        # the list, history and delete pages find the row by its key
        self.assertContains(self.client.get("/admin/things/%s/" % model._meta.model_name), str(obj.pk))
        self.assertEqual(self.client.get(self.url(model, "history", obj)).status_code, 200)
        self.assertEqual(self.client.get(self.url(model, "delete", obj)).status_code, 200)
        response = self.client.post(self.url(model, "delete", obj), {"post": "yes"})
        self.assertEqual(response.status_code, 302)
        self.assertFalse(model.objects.filter(pk=obj.pk).exists())
