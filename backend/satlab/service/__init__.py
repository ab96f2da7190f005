"""The service: what the HTTP API and the CLI share above single runs. runs
(the run manager: scenarios become engine runs on threads, every event
stored and fanned out to streams), campaign (a scenario matrix expanded into
runs), store (SQLite), export (CSV), provenance (what a run was made with),
labs (the presets). It uses satlab.engine; satlab.api, satlab.cli and
satlab.studies use it.
"""
