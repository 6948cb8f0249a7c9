"""A run's configuration: checks beyond the schema, canonical settings, the run's name and record,
the files its systems need, and the errors meant for users."""
