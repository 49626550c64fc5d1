{
  "variables": {
    # scripts/build-native.mjs sets these (-D) when pg_config and libpq-fe.h are there.
    "sledge_pgvu%": "0",
    "pg_includedir%": "",
    "pg_libdir%": "",
    # ... and these when the MariaDB C connector is there (mariadb_config, or mysql.h + libmariadb).
    "sledge_myvu%": "0",
    "my_includedir%": "",
    "my_libdir%": ""
  },
  "target_defaults": {
    "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
    "cflags!": ["-O0", "-O1", "-O2"],
    "cflags_cc!": ["-std=gnu++17", "-O0", "-O1", "-O2"],
    "cflags": ["-O3", "-fvisibility=hidden", "-ffp-contract=off"],
    "cflags_cc": ["-std=c++20", "-O3", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-ffp-contract=off"],
    "xcode_settings": {
      "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
      "GCC_OPTIMIZATION_LEVEL": "3",
      "CLANG_CXX_LANGUAGE_STANDARD": "c++20",
      "OTHER_CFLAGS": ["-ffp-contract=off"],
      "OTHER_CPLUSPLUSFLAGS": ["-ffp-contract=off"]
    },
    "msvs_settings": {
      "VCCLCompilerTool": { "AdditionalOptions": ["/std:c++20", "/O2", "/fp:precise"] }
    }
  },
  "targets": [
    {
      "target_name": "sledge_native",
      "sources": ["src/addon.cc", "src/datagen.cc", "src/original_sets.cc", "src/tproch_addon.cc", "src/tproch_gen.cc"]
    }
  ],
  "conditions": [
    ["sledge_pgvu==1", {
      "targets": [
        {
          "target_name": "sledge_pgvu",
          "sources": ["src/pgvu/addon.cc", "src/pgvu/conn.cc", "src/pgvu/loader.cc", "src/pgvu/run.cc", "src/pgvu/script_run.cc", "src/pgvu/vu_threads.cc", "src/pgvu/log_sink.cc", "src/pgvu/session_keeper.cc"],
          "include_dirs": ["<(pg_includedir)"],
          "libraries": ["-L<(pg_libdir)", "-lpq", "-Wl,-rpath,<(pg_libdir)"],
          "cflags_cc": ["-pthread"],
          "ldflags": ["-pthread"]
        }
      ]
    }],
    ["sledge_myvu==1", {
      "targets": [
        {
          "target_name": "sledge_myvu",
          "sources": ["src/myvu/addon.cc", "src/myvu/conn.cc", "src/myvu/loader.cc", "src/pgvu/run.cc", "src/pgvu/vu_threads.cc", "src/pgvu/log_sink.cc", "src/pgvu/session_keeper.cc"],
          "include_dirs": ["<(my_includedir)"],
          "libraries": ["-L<(my_libdir)", "-lmariadb", "-Wl,-rpath,<(my_libdir)"],
          "cflags_cc": ["-pthread"],
          "ldflags": ["-pthread"]
        }
      ]
    }]
  ]
}
