"""Flows: one transport's implementation each (base.Flow is the contract),
started by the engine inside a run's namespaces. Which transports exist is
data in satlab.transports; base.flow_class imports one when a run needs it.
"""
