"""satlab: transport protocols over emulated GEO satellite links.

The data flow, and the package each step lives in:

    scenario (satlab.scenario, satlab.transports: the input and its vocabulary)
      -> engine (satlab.engine: plan -> topology -> links -> tunnel -> flows
                 -> samplers -> summary, one run on this host)
      -> service (satlab.service: the run manager, campaigns, the store, exports)
      -> faces: satlab.api (HTTP, streamed to the UI), satlab.cli;
         satlab.studies (published studies as campaigns, and their reports)

Imports point down that list only; tests/test_architecture.py checks it.
"""
