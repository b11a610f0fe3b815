"""The running table: config, the services that compose readers, camera, session and web, and the starter."""
