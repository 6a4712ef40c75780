"""The database: one schema of every table, its migrations, and the functions that read and
write it. Nothing else in the room sends SQL."""
