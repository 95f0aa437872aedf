"""A development score stores every figure of the library that an official score stores
(``bakeoff.figures.LIBRARY_FIGURES``): the OOV counts, taken from each stored result."""

from typing import Any

from django.db import migrations, models


def from_results(apps: Any, schema_editor: Any) -> None:
    DevelopmentScore = apps.get_model("bakeoff", "DevelopmentScore")
    for score in DevelopmentScore.objects.all().only("pk", "result"):
        result = score.result or {}
        DevelopmentScore.objects.filter(pk=score.pk).update(
            oov_words=int(result.get("oov_words", 0)),
            correct_oov=int(result.get("correct_oov", 0)),
        )


class Migration(migrations.Migration):
    dependencies = [
        ("bakeoff", "0019_reader_pages_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="developmentscore",
            name="oov_words",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="developmentscore",
            name="correct_oov",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.RunPython(from_results, migrations.RunPython.noop),
    ]
