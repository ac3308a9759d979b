package mailer

// MaxBatchBytes is maxBatchBytes, for the tests of the byte bound.
const MaxBatchBytes = maxBatchBytes
