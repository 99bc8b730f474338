from django.contrib import admin

from .models import THINGS


class ThingAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "other")


for model in THINGS:
    admin.site.register(model, ThingAdmin)
