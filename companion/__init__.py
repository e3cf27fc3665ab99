"""The product: camera sources, the referee loop, the event store, the dashboard and the CLI."""
