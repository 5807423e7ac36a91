-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "operator_managed" BOOLEAN NOT NULL DEFAULT false;
