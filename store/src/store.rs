use std::str::FromStr;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor};

use std::sync::Arc;

use super::changes::Changes;
use super::game_writes::{GameWriter, Pending, Write, ACQUIRE_TIMEOUT, SQLITE_PRAGMAS};
use crate::error::StoreError;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

/// The file of a SQLite pool's main database.
async fn database_file(pool: &AnyPool) -> Result<std::path::PathBuf, StoreError> {
    let file: String = sqlx::query_scalar("SELECT file FROM pragma_database_list WHERE name = 'main'").fetch_one(pool).await?;
    if file.is_empty() {
        return Err(StoreError::Invalid("an in-memory SQLite database is not supported: name a file".into()));
    }
    Ok(file.into())
}

/// Copies the WAL into the database file every second (a passive checkpoint, which
/// neither waits for nor blocks the writer), until the pool closes.
async fn checkpoint_often(pool: AnyPool) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(1));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if pool.is_closed() {
            return;
        }
        if let Err(e) = pool.execute("PRAGMA wal_checkpoint(PASSIVE)").await {
            tracing::warn!("checkpointing the WAL: {e}");
        }
    }
}

/// Which database a [`Store`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl FromStr for Backend {
    type Err = StoreError;

    /// Reads the backend off a database URL.
    fn from_str(url: &str) -> Result<Self, StoreError> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else {
            Err(StoreError::Invalid("DATABASE_URL must start with sqlite: or postgres://".into()))
        }
    }
}

/// The options sqlx reads after the `?` of a SQLite URL.
const SQLITE_OPTIONS: [&str; 4] = ["mode", "cache", "immutable", "vfs"];

/// A SQLite URL (`sqlite://path/to/file.db?options`) as its user wrote it: the file's
/// path exactly as typed (no percent-decoding: `pct%41.db` is that file, not
/// `pctA.db`), and the options after the first `?` that starts a list of options
/// sqlx knows (`mode=ro&cache=shared`); a `?` followed by anything else is part of
/// the file's name.
fn split_sqlite_url(url: &str) -> (&str, Option<&str>) {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let are_options = |query: &str| {
        query.is_empty() || query.split('&').all(|pair| pair.split_once('=').is_some_and(|(key, _)| SQLITE_OPTIONS.contains(&key)))
    };
    rest.match_indices('?')
        .find_map(|(at, _)| match (rest.get(..at), rest.get(at + 1..)) {
            (Some(path), Some(options)) if are_options(options) => Some((path, Some(options))),
            _ => None,
        })
        .unwrap_or((rest, None))
}

/// The file a SQLite URL (`sqlite://path/to/file.db?options`) names, as its user
/// typed it (see [`split_sqlite_url`]).
pub fn sqlite_file(url: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(split_sqlite_url(url).0)
}

/// The URL that opens the SQLite database of `url` to write: its file (whose folder
/// is created if missing) and options, with `mode=rwc` (create the file) unless the
/// URL names a mode, once the file is known to be no other program's (see
/// [`super::read_only::check_before_writing`]).
async fn writable_sqlite_url(url: &str) -> Result<String, StoreError> {
    let (file, options) = split_sqlite_url(url);
    let file = std::path::Path::new(file);
    create_parent_folder(file)?;
    super::read_only::check_before_writing(file, &SQLITE_MIGRATIONS).await?;
    let options = match options {
        Some(options) if options.split('&').any(|pair| pair.starts_with("mode=")) => options.to_owned(),
        Some(options) if !options.is_empty() => format!("{options}&mode=rwc"),
        _ => "mode=rwc".to_owned(),
    };
    let url = super::read_only::sqlite_url_of(file, &options)?;
    check_writable(file, &url).await?;
    Ok(url)
}

/// Creates the folder of the SQLite `file` if missing.
fn create_parent_folder(file: &std::path::Path) -> Result<(), StoreError> {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Invalid(format!("cannot create {}: {e}", dir.display())))
        }
        _ => Ok(()),
    }
}

/// Opens one connection to the SQLite `file` at `url` with the pool's settings and
/// takes its write lock once, so that a file that cannot be written (read-only, in a
/// folder that is, damaged) is refused at once with its name and SQLite's reason,
/// where the pool would retry until its time-out and say only that. A lock held by
/// another connection is no refusal: the pool waits for it as it does for any.
async fn check_writable(file: &std::path::Path, url: &str) -> Result<(), StoreError> {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let refused = |e: sqlx::Error| match StoreError::from(e) {
        StoreError::Db(e) => Err(super::read_only::file_refused(file, "written", &e)),
        StoreError::Busy(_) => Ok(()),
        other => Err(other),
    };
    let mut conn = match sqlx::AnyConnection::connect(url).await {
        Ok(conn) => conn,
        Err(e) => return refused(e),
    };
    let tried = async {
        (&mut conn).execute(SQLITE_PRAGMAS).await?;
        sqlx::query("BEGIN IMMEDIATE").execute(&mut conn).await?;
        sqlx::query("ROLLBACK").execute(&mut conn).await?;
        Ok::<(), sqlx::Error>(())
    }
    .await;
    let closed = conn.close().await;
    tried.or_else(refused)?;
    closed.or_else(refused)
}

/// The database: a connection pool, the backend it speaks, the game's write path,
/// and the counters of changes that a process's caches of it watch ([`Changes`]).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// Where the game's hot writes (servings, answers, moving on) and the reads of
    /// sessions go. On SQLite one connection on a thread of its own, so that writes
    /// queue here instead of colliding on SQLite's write lock, whose busy handler
    /// sleeps a millisecond or more per collision, and commit in batches; on
    /// PostgreSQL batches go as a few statements, on connections of their own (see
    /// [`GameWriter`]).
    pub(super) writes: GameWriter,
    backend: Backend,
    pub(super) changes: Arc<Changes>,
}

impl Store {
    /// Connects, creating the SQLite file (and its folder) when it does not exist,
    /// and applies the migrations of the backend. A SQLite file that is there but is
    /// no Gapwise database (another program's, random bytes, too damaged to read),
    /// or that cannot be written, is refused at once with its name and the reason,
    /// and left as it was. For the server and the commands
    /// that write; the commands that only read use [`Store::open_read_only`].
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        match url.parse::<Backend>()? {
            Backend::Sqlite => Self::connect(&writable_sqlite_url(url).await?).await,
            Backend::Postgres => Self::connect(url).await,
        }
    }

    /// Opens a Gapwise database that must exist already to read it only: nothing is
    /// created, migrated or written (see [`super::read_only`]); a database that is
    /// not there, not Gapwise's, unreadable or behind this program's migrations is
    /// refused at once with the reason. The store's game writes fail.
    pub async fn open_read_only(url: &str) -> Result<Self, StoreError> {
        let backend: Backend = url.parse()?;
        let url = match backend {
            Backend::Sqlite => super::read_only::sqlite_url(&sqlite_file(url), &SQLITE_MIGRATIONS).await?,
            Backend::Postgres => super::read_only::postgres_url(url, &POSTGRES_MIGRATIONS).await?,
        };
        let mut options = AnyPoolOptions::new().max_connections(4).acquire_timeout(ACQUIRE_TIMEOUT);
        if backend == Backend::Sqlite {
            options = options.test_before_acquire(false).after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute("PRAGMA busy_timeout = 10000;").await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(&url).await?;
        Ok(Store { pool, writes: GameWriter::closed(), backend, changes: Arc::default() })
    }

    /// Connects to `url` (for SQLite, as [`writable_sqlite_url`] makes it) and migrates.
    async fn connect(url: &str) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let backend: Backend = url.parse()?;
        // A request waits at most ACQUIRE_TIMEOUT for a connection: when the database
        // is gone it fails with 503 (see StoreError::is_unavailable) instead of hanging.
        let mut options = AnyPoolOptions::new().max_connections(16).acquire_timeout(ACQUIRE_TIMEOUT);
        if backend == Backend::Sqlite {
            // a connection to a local file does not go stale: no ping before each use
            options = options.test_before_acquire(false).after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute(SQLITE_PRAGMAS).await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(url).await?;
        let migrator = match backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&pool).await?;
        if backend == Backend::Sqlite {
            // marks the file as Gapwise's, for the commands that only read it
            sqlx::query(&format!("PRAGMA application_id = {}", super::read_only::APPLICATION_ID)).execute(&pool).await?;
        }
        let writes = match backend {
            Backend::Sqlite => {
                let writes = GameWriter::sqlite(database_file(&pool).await?).await?;
                tokio::spawn(checkpoint_often(pool.clone()));
                writes
            }
            Backend::Postgres => GameWriter::postgres(url, pool.clone()).await?,
        };
        let store = Store { pool, writes, backend, changes: Arc::default() };
        let indexed = store.index_unindexed().await?;
        if indexed > 0 {
            tracing::info!(sentences = indexed, "indexed the words of sentences imported before the word index existed");
        }
        let repaired = store.repair_game_positions().await?;
        if repaired.sentences > 0 {
            tracing::info!(
                ?repaired,
                "renumbered the game rows of sentences whose words the games now count as one (don't) or with an apostrophe (l')"
            );
        }
        Ok(store)
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// What changed in this process (see [`Changes`]).
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// Hands `write` to the game's write path and waits until it is committed:
    /// whether it stored (or moved) anything.
    pub async fn write(&self, write: Write) -> Result<bool, StoreError> {
        self.writes.write(write).await
    }

    /// Hands `write` to the game's write path: on SQLite it joins the next batch,
    /// and the result comes with that batch's commit.
    pub async fn send(&self, write: Write) -> Pending<bool> {
        self.writes.send(write).await
    }

    /// Number of rows in `table`, for tests, the CLI's summaries and health checks.
    /// `table` must be one of the schema's table names.
    pub async fn count_rows(&self, table: &str) -> Result<i64, StoreError> {
        if !crate::tables::all_tables().any(|t| t.name == table) {
            return Err(StoreError::Invalid(format!("unknown table {table}")));
        }
        let row: AnyRow = sqlx::query(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&self.pool).await?;
        Ok(sqlx::Row::try_get(&row, 0)?)
    }

    /// Whether the database answers a trivial query.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Whether the database takes the game's work within `wait` (the server's
    /// readiness probe): on PostgreSQL it answers a query; on SQLite, whose lock
    /// another program may hold, its write lock is also free (taken and given back at
    /// once, with a busy wait of `wait` on a connection that is closed afterwards, so
    /// that neither the wait nor a transaction cut short stays in the pool).
    pub async fn ready(&self, wait: std::time::Duration) -> Result<(), StoreError> {
        let check = async {
            match self.backend {
                Backend::Sqlite => self.sqlite_write_lock_free(wait).await,
                Backend::Postgres => self.ping().await,
            }
        };
        tokio::time::timeout(wait, check)
            .await
            .map_err(|_| StoreError::Busy(format!("the database did not answer within {} ms", wait.as_millis())))?
    }

    /// Takes SQLite's write lock and gives it back, waiting at most `wait` for it.
    async fn sqlite_write_lock_free(&self, wait: std::time::Duration) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        conn.close_on_drop();
        sqlx::query(&format!("PRAGMA busy_timeout = {}", wait.as_millis())).execute(&mut *conn).await?;
        sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
        sqlx::query("ROLLBACK").execute(&mut *conn).await?;
        Ok(())
    }

    /// Closes the pool and the SQLite writer, waiting for connections in use.
    pub async fn close(&self) {
        self.writes.close().await;
        self.pool.close().await;
    }
}

/// Declares a handle on one area of the store's queries: a type borrowing the
/// [`Store`] (whose pool and changes the area's queries use through `Deref`), and
/// the `Store` method that hands it out, both documented with the area's `doc`.
/// Each area's file holds its queries as the handle's methods, so that a caller
/// names the area: `store.define().serving(..)`.
macro_rules! area {
    ($(#[$doc:meta])* $handle:ident, $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $handle<'s>(&'s $crate::store::Store);

        impl $crate::store::Store {
            $(#[$doc])*
            pub fn $name(&self) -> $handle<'_> {
                $handle(self)
            }
        }

        impl std::ops::Deref for $handle<'_> {
            type Target = $crate::store::Store;

            fn deref(&self) -> &$crate::store::Store {
                self.0
            }
        }
    };
}
pub(crate) use area;
