"""`satlab worker`: runs taken from the queue in Redis and run on this host.

    program.py    the worker: its start (checks, name, sweep, calibration) and Celery
    execution.py  one queue message, from validation to the run's last event
    gate.py       which messages it takes, and when each run may start (admission by cost)
    heartbeat.py  its record in Redis, renewed; cancels from the server
    command.py    the command line's face: messages, exit statuses, --calibrate
"""
