package postgres

// Migrations are the schema migrations, for the test that migrates a
// database written by an earlier release.
var Migrations = migrations
