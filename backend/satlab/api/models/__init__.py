"""The API's request and response bodies, a module per resource (runs,
samples, campaigns, labs, studies, classroom, host, auth), the shapes of its
WebSocket events (events), and what they share (common). The OpenAPI
document (`satlab openapi`) is generated from them: the browser's types
come from it, never typed twice by hand."""
