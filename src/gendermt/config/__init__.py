"""A run's configuration: checks beyond the schema, canonical settings, the config files, the
prompt template files, a system's settings and the bound on what one input may hold. It stands
on the foundation (gendermt.core) alone."""
