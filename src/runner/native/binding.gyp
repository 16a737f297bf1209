{
  "targets": [
    {
      "target_name": "echo_relay",
      "sources": ["echo_relay.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=gnu11"],
      "libraries": ["-lpthread"]
    }
  ]
}
