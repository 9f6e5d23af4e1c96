import MyNotesTesting
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a suite only where PostgreSQL's programs are installed, saying how to get them.
    static var postgreSQLInstalled: Self {
        .enabled(
            if: PostgreSQLCluster.isAvailable,
            "PostgreSQL is not installed (no initdb, pg_ctl or psql in /usr/lib/postgresql/15/bin): scripts/install-deps.sh --with-postgresql installs it"
        )
    }
}
