"""The cardtable HTTP service: a generic Flask app over the engines in ``engines.REGISTRY``."""
