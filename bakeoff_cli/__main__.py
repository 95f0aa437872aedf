from bakeoff_cli.main import main

raise SystemExit(main())
