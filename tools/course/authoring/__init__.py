"""A lesson's authoring: a new lesson scaffolded from the template, and the files the course
generates from its lessons' manifests written again (regenerate). For maintainers; may import
every room below."""
